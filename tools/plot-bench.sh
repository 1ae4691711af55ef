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
# Header: workload,n,bits,sorter,median_ms,gkeys_per_s,ratio_to_cub,floor_fraction[,dist,ok]
# (files from before the dist and ok columns: uniform, ok). Frame-mode CSVs are refused. Rows
# whose check failed (ok 0) are left out. One plot per workload, bit range and distribution:
# <workload>.png for every bit of uniform keys, <workload>-<dist>.png for every bit of other
# distributions, else <workload>-bits<lo>_<hi>-<dist>.png.
for f in "$@"; do
  head -n1 "$f" | grep -q '^workload,n,bits,sorter,' ||
    { echo "plot-bench: $f is not a vksort-gpu-bench table CSV (frame-mode CSVs are not plotted)" >&2; exit 1; }
done
tail -q -n +2 "$@" | awk -F, -v OFS=, '{ d = $9 == "" ? "uniform" : $9; ok = $10 == "" ? 1 : $10;
  if (ok == 1) print $1 "|" $3 "|" d, $2, $4, $6 }' | sort -t, -k1,1 -k3,3 -k2,2n -u > "$tmp/all.csv"
plots=0
for g in $(cut -d, -f1 "$tmp/all.csv" | sort -u); do
  IFS='|' read -r w bits dist <<< "$g"
  name=$w
  label=$w
  if [ "$bits" != "0:0" ]; then
    name="$w-bits${bits/:/_}-$dist"
    label="$w (bits $bits, $dist keys)"
  elif [ "$dist" != "uniform" ]; then # every bit: 0:0 in the CSV
    name="$w-$dist"
    label="$w ($dist keys)"
  fi
  plot=""
  for s in $(awk -F, -v g="$g" '$1 == g { print $3 }' "$tmp/all.csv" | sort -u); do
    awk -F, -v g="$g" -v s="$s" '$1 == g && $3 == s { print $2, $4 }' "$tmp/all.csv" \
      > "$tmp/$name-$s.dat"
    [ -s "$tmp/$name-$s.dat" ] || continue
    plot="$plot${plot:+, }'$tmp/$name-$s.dat' using 1:2 with linespoints title '$s'"
  done
  [ -n "$plot" ] || continue
  w=$name
  gnuplot <<GP
set terminal pngcairo size 900,560 noenhanced
set output '$out/$w.png'
set title '$label on the GPU: throughput against n (higher is better)'
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
  plots=$((plots + 1))
done
[ "$plots" -gt 0 ] || { echo "plot-bench: no row to plot (every check failed, or no rows)" >&2; exit 1; }
