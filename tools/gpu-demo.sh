#!/usr/bin/env bash
# The particle demo's frame breakdown on the GPU machine (H200), headless, from the repository
# root with a carried build directory and `source .gpu/env.sh` done by the caller:
#   for 1M, 4M and 16M particles and every sort backend: FRAMES frames at 1920x1080, per-pass GPU
#   milliseconds in one CSV per run, then one Markdown table of medians (first SKIP frames
#   dropped); 16-bit quantized keys (--key-bits 16) for the GPU sorts too; one screenshot.
# Environment: BUILD (default build), OUT (default $BUILD/gpu-demo), FRAMES (40), SKIP (10),
# SIZES ("1M 4M 16M"), SORTS ("onesweep portable bitonic cuda cpu none").
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
OUT=${OUT:-$BUILD/gpu-demo}
FRAMES=${FRAMES:-40}
SKIP=${SKIP:-10}
SIZES=${SIZES:-1M 4M 16M}
SORTS=${SORTS:-onesweep portable bitonic cuda cpu none}
DEMO="$BUILD/demo/vksort-demo"
mkdir -p "$OUT"
status=0
run() { # name, args...
  local name=$1
  shift
  if ! "$DEMO" --headless --frames "$FRAMES" --size 1920x1080 --quiet --timings "$OUT/$name.csv" "$@" \
      > "$OUT/$name.log" 2>&1; then
    echo "gpu-demo: $name failed: $(tail -1 "$OUT/$name.log")"
    status=1
  fi
}
for n in $SIZES; do
  for s in $SORTS; do
    run "demo_${s}_${n}" --particles "$n" --sort "$s"
  done
  for s in onesweep portable cuda; do
    [[ " $SORTS " == *" $s "* ]] && run "demo_${s}_${n}_key16" --particles "$n" --sort "$s" --key-bits 16
  done
done
"$DEMO" --headless --frames 120 --particles 1M --size 1280x720 --quiet \
  --screenshot "$OUT/demo-h200-1M.png" > "$OUT/screenshot.log" 2>&1 || status=1
python3 demo/summarize_timings.py --skip "$SKIP" "$OUT"/demo_*.csv > "$OUT/table.md"
cat "$OUT/table.md"
echo "gpu-demo: status $status, logs in $OUT"
exit $status
