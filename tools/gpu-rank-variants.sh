#!/usr/bin/env bash
# Measures the RANK small sort (issue #3: 4096 u32 pairs in one dispatch) on a GPU machine (the
# H200) for each workgroup size, with the per-sort control-word fill and with a persistent
# scratch, from the repository root, with a build directory built elsewhere and carried along:
#
#   source .gpu/env.sh
#   BUILD=build-gpu tools/gpu-rank-variants.sh
#
# Prints the floors once (two timestamps; barrier + fill + barrier; an empty RANK dispatch),
# then one RESULT line per (variant, mode, size) from vksort_vk_bitonic_bench, median of RUNS
# runs, every run checked, and a table (median microseconds) at the end. Also the network, for
# comparison.
#
# Environment: BUILD (default build-gpu), OUT (default $BUILD/gpu-rank), RUNS (default 50),
# SIZES (log2, default 10,11,12,13), WGS (default "256 512 1024").
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/gpu-rank}
RUNS=${RUNS:-50}
SIZES=${SIZES:-10,11,12,13}
WGS=${WGS:-256 512 1024}
mkdir -p "$OUT"
if [ -f .gpu/env.sh ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    # shellcheck disable=SC1091
    source .gpu/env.sh
fi
unset LP_NATIVE_VECTOR_WIDTH
export VKSORT_TEST_DEVICE_NAME=${VKSORT_TEST_DEVICE_NAME:-NVIDIA}
BENCH=$BUILD/tests/vk/vksort_vk_bitonic_bench
[ -x "$BENCH" ] || { echo "gpu-rank-variants: $BENCH not found" >&2; exit 2; }

status=0
run() { # label, args...
    local label=$1
    shift
    "$BENCH" --sizes "$SIZES" --runs "$RUNS" --label "$label" "$@" \
        > "$OUT/$label.txt" 2>&1 || { echo "FAILED: $label" >&2; status=1; }
    grep '^floor' "$OUT/$label.txt"
}
run network --small-sort network
for wg in $WGS; do
    run "rank$wg" --small-sort rank --rank-wg "$wg" --floor
    run "rank$wg-persistent" --small-sort rank --rank-wg "$wg" --persistent --floor
done
echo
echo "| variant | mode | log2 n | median us | min us |"
echo "| --- | --- | ---: | ---: | ---: |"
cat "$OUT"/*.txt | awk '/^RESULT/ {printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6}'
grep -h '^device' "$OUT/network.txt"
exit $status
