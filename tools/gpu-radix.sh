#!/usr/bin/env bash
# The radix sorts on the GPU machine (H200), from the repository root, with a carried build
# directory (BUILD, default build) and `source .gpu/env.sh` done by the caller:
#   1. test_vk_radix --algo onesweep|portable --large (up to 2^28 keys, validation on)
#   2. the GPU benchmark against CUB (2^10..2^24 every workload; 2^26..2^28 u32 keys and pairs)
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
  # Floor: 4.2 TB/s, the device-to-device copy rate measured through CUDA on this H200
  # (vkCmdCopyBuffer runs on a slower copy engine).
  B="$BUILD/bench/vksort-gpu-bench --copy-tbps ${COPY_TBPS:-4.2}"
  $B --min-log2 10 --max-log2 24 --csv "$OUT/bench-small.csv" > "$OUT/bench-small.txt" 2>&1 || status=1
  # 2^25 .. 2^28 for every workload (u64 at 2^28 needs ~2 GiB keys + scratch; a sorter the
  # device cannot create says why in its row), then 16- and 24-bit ranges and depth keys.
  $B --min-log2 25 --max-log2 28 --sorters onesweep,portable,cub \
    --csv "$OUT/bench-large.csv" > "$OUT/bench-large.txt" 2>&1 || status=1
  $B --min-log2 16 --max-log2 24 --only u32keys,u32pairs,u64keys --bits 0:16 --sorters onesweep,portable,cub \
    --csv "$OUT/bench-bits16.csv" > "$OUT/bench-bits16.txt" 2>&1 || status=1
  $B --min-log2 16 --max-log2 24 --only u32keys,u32pairs,u64keys --bits 0:24 --sorters onesweep,portable,cub \
    --csv "$OUT/bench-bits24.csv" > "$OUT/bench-bits24.txt" 2>&1 || status=1
  $B --min-log2 16 --max-log2 26 --only u32keys,u32pairs,f32pairs --dist depth --sorters onesweep,portable,cub \
    --csv "$OUT/bench-depth.csv" > "$OUT/bench-depth.txt" 2>&1 || status=1
fi
echo "gpu-radix: status $status, logs in $OUT"
exit $status
