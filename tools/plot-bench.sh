#!/usr/bin/env bash
# Turns vksort-gpu-bench CSV files into PNG plots with gnuplot: one plot per workload,
# throughput (G keys/s) against n, log-log, one line per sorter.
#   tools/plot-bench.sh OUT_DIR file.csv [file.csv ...]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: tools/plot-bench.sh OUT_DIR file.csv [file.csv ...]" >&2
  exit 2
fi
command -v gnuplot >/dev/null || { echo "plot-bench: gnuplot not installed (apt install gnuplot-nox)" >&2; exit 1; }
out=$1
shift
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Header: workload,n,bits,sorter,median_ms,gkeys_per_s,ratio_to_cub,floor_fraction
tail -q -n +2 "$@" | sort -t, -k1,1 -k4,4 -k2,2n > "$tmp/all.csv"
for w in $(cut -d, -f1 "$tmp/all.csv" | sort -u); do
  plot=""
  for s in $(awk -F, -v w="$w" '$1 == w { print $4 }' "$tmp/all.csv" | sort -u); do
    awk -F, -v w="$w" -v s="$s" '$1 == w && $4 == s && $3 == "0:0" { print $2, $6 }' "$tmp/all.csv" \
      > "$tmp/$w-$s.dat"
    [ -s "$tmp/$w-$s.dat" ] || continue
    plot="$plot${plot:+, }'$tmp/$w-$s.dat' using 1:2 with linespoints title '$s'"
  done
  [ -n "$plot" ] || continue
  gnuplot <<GP
set terminal pngcairo size 900,560 noenhanced
set output '$out/$w.png'
set title '$w on the GPU: throughput against n (higher is better)'
set logscale x 2
set logscale y 10
set format x '2^%L'
set xlabel 'n (keys)'
set ylabel 'G keys/s (GPU time)'
set key left top
set grid
plot $plot
GP
  echo "plot-bench: $out/$w.png"
done
