#!/usr/bin/env bash
# The radix sorts on the GPU machine (H200), from the repository root, with a carried build
# directory (BUILD, default build) and `source .gpu/env.sh` done by the caller:
#   1. test_vk_radix --algo onesweep|portable --large (up to 2^28 keys, validation on)
#   2. the GPU benchmark against CUB (tools/gpu-table.sh, logs in $OUT/table)
# Logs go to $OUT (or $BUILD/gpu-radix). STAGES (default "tests bench") picks the parts.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
OUT=${OUT:-$BUILD/gpu-radix}
STAGES=${STAGES:-tests bench}
mkdir -p "$OUT"
unset LP_NATIVE_VECTOR_WIDTH
export VKSORT_TEST_DEVICE_NAME=${VKSORT_TEST_DEVICE_NAME:-NVIDIA}
export VKSORT_TEST_EXPECT_SUBGROUP=${VKSORT_TEST_EXPECT_SUBGROUP:-32}
status=0
stage() { [[ " $STAGES " == *" $1 "* ]]; }
if stage tests; then
  for algo in onesweep portable; do
    "$BUILD/tests/vk/test_vk_radix" --algo "$algo" --large > "$OUT/test-$algo.log" 2>&1
    rc=$?
    echo "test_vk_radix --algo $algo --large: exit $rc ($(grep -E 'checks' "$OUT/test-$algo.log"))"
    grep -E "^FAIL|MISMATCH" "$OUT/test-$algo.log" | head -5
    [ $rc -eq 0 ] || status=1
  done
fi
if stage bench; then
  # The checked table (tools/gpu-table.sh: 2^10..2^28 for every workload, 16- and 24-bit
  # ranges, depth keys, per-frame sorts), without its deadline.
  BENCH="$BUILD/bench/vksort-gpu-bench" OUT="$OUT/table" DEADLINE=${DEADLINE:-100000} \
    tools/gpu-table.sh || status=1
fi
echo "gpu-radix: status $status, logs in $OUT"
exit $status
