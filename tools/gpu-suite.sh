#!/usr/bin/env bash
# Runs the Vulkan test suite and the bitonic benchmark on a GPU machine (the H200), from the
# repository root, with a build directory built elsewhere and carried along:
#
#   source .gpu/env.sh            # if present: Vulkan loader + validation layers on that machine
#   tools/gpu-suite.sh            # BUILD=build-vk by default; logs go to $OUT (or $BUILD/gpu-suite)
#
# Environment:
#   BUILD                         build directory (default build-vk)
#   OUT                           where logs go (default $BUILD/gpu-suite)
#   VKSORT_TEST_DEVICE_NAME       device to use, by name substring (default NVIDIA)
#   VKSORT_TEST_DEVICE            device to use, by index (wins over the name when set)
#   VKSORT_TEST_EXPECT_SUBGROUP   subgroup size the tests insist on (default 32)
#   BENCH_RUNS                    runs per size in the benchmark (default 30)
#   BENCH_MAX_LOG2                largest size 2^k in the benchmark (default 24)
#   SKIP_TESTS=1 / SKIP_BENCH=1   run only one half
# Exit status: non-zero when the tests or a benchmark check failed.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
BUILD=${BUILD:-build-vk}
OUT=${OUT:-$BUILD/gpu-suite}
mkdir -p "$OUT"

if [ -f .gpu/env.sh ] && [ -z "${VKSORT_GPU_ENV_DONE:-}" ]; then
    # shellcheck disable=SC1091
    source .gpu/env.sh
    export VKSORT_GPU_ENV_DONE=1
fi

# The native device: no lavapipe settings, NVIDIA unless told otherwise, warp-sized subgroups.
unset LP_NATIVE_VECTOR_WIDTH
if [ -z "${VKSORT_TEST_DEVICE:-}" ]; then
    export VKSORT_TEST_DEVICE_NAME=${VKSORT_TEST_DEVICE_NAME:-NVIDIA}
fi
export VKSORT_TEST_EXPECT_SUBGROUP=${VKSORT_TEST_EXPECT_SUBGROUP:-32}

TEST_BIN=$BUILD/tests/vk/test_vk_bitonic
BENCH_BIN=$BUILD/tests/vk/vksort_vk_bitonic_bench
for bin in "$TEST_BIN" "$BENCH_BIN"; do
    if [ ! -x "$bin" ]; then
        echo "gpu-suite: $bin not found (configure and build $BUILD with the Vulkan backend first)" >&2
        exit 2
    fi
done

status=0
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
    echo "host: $(uname -srm)"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader
    echo "devices:"
    "$TEST_BIN" --list-devices
    echo "VKSORT_TEST_DEVICE=${VKSORT_TEST_DEVICE:-} VKSORT_TEST_DEVICE_NAME=${VKSORT_TEST_DEVICE_NAME:-} VKSORT_TEST_EXPECT_SUBGROUP=$VKSORT_TEST_EXPECT_SUBGROUP"
} 2>&1 | tee "$OUT/environment.txt"

if [ -z "${SKIP_TESTS:-}" ]; then
    echo "== tests (validation + synchronization validation on)" | tee "$OUT/tests.log"
    # ctest when the carried build directory was configured at this same path; otherwise the test
    # binary directly (CTest files hold absolute paths).
    if command -v ctest >/dev/null && grep -qF "$ROOT/$BUILD" "$BUILD/CTestTestfile.cmake" 2>/dev/null; then
        (cd "$BUILD" && ctest -L gpu --output-on-failure) 2>&1 | tee -a "$OUT/tests.log"
        rc=${PIPESTATUS[0]}
    else
        echo "(running $TEST_BIN directly)" | tee -a "$OUT/tests.log"
        "$TEST_BIN" 2>&1 | tee -a "$OUT/tests.log"
        rc=${PIPESTATUS[0]}
    fi
    echo "tests exit status: $rc" | tee -a "$OUT/tests.log"
    [ "$rc" -eq 0 ] || status=1
fi

if [ -z "${SKIP_BENCH:-}" ]; then
    runs=${BENCH_RUNS:-30}
    max_log2=${BENCH_MAX_LOG2:-24}
    for flags in "" "--stable"; do
        name=bench-bitonic${flags:+-stable}
        echo "== bitonic benchmark $flags (u32 keys, keys and pairs, 2^10 .. 2^$max_log2)" | tee "$OUT/$name.txt"
        # shellcheck disable=SC2086
        "$BENCH_BIN" --runs "$runs" --min-log2 10 --max-log2 "$max_log2" --passes $flags 2>&1 | tee -a "$OUT/$name.txt"
        rc=${PIPESTATUS[0]}
        echo "bench exit status: $rc" | tee -a "$OUT/$name.txt"
        [ "$rc" -eq 0 ] || status=1
    done
    # 64-bit keys, up to 2^22.
    max64=$(( max_log2 < 22 ? max_log2 : 22 ))
    "$BENCH_BIN" --runs "$runs" --min-log2 10 --max-log2 "$max64" --key u64 2>&1 | tee "$OUT/bench-bitonic-u64.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi

echo "gpu-suite: logs in $OUT, status $status"
exit $status
