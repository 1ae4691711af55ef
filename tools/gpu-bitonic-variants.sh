#!/usr/bin/env bash
# Measures every bitonic variant on a GPU machine (the H200) in one go, from the repository root,
# with a build directory built elsewhere and carried along:
#
#   source .gpu/env.sh                       # Vulkan loader + layers on that machine
#   BUILD=build-gpu tools/gpu-bitonic-variants.sh
#
# 1. vksort_vk_bitonic_bench for each variant (elements per invocation E x tile cap; e32 applies
#    to these non-stable u32 sorts, stable ones would use 16), u32 keys and
#    u32 keys + u32 payload, n = 2^10 2^12 2^13 2^16 2^20 2^22 2^24, GPU time from timestamps,
#    median of BENCH_RUNS runs (BENCH_LARGE_RUNS from 2^20), first runs of each size checked.
# 2. A per-pass breakdown of the default variant at a few sizes, and its stable sorts.
# 3. Correctness once: test_vk_bitonic --quick on the native device (validation on, subgroup size
#    checked), the binary directly (the carried CTest files hold absolute paths), in the time left.
# 4. ONE table at the end: variant x size, median microseconds.
#
# Environment:
#   BUILD              build directory (default build-gpu)
#   OUT                logs (default $BUILD/gpu-bitonic-variants)
#   BENCH_RUNS         runs per size below 2^20 (default 20)
#   BENCH_LARGE_RUNS   runs per size from 2^20 (default 7)
#   BENCH_SIZES        log2 sizes (default 10,12,13,16,20,22,24)
#   VARIANTS           "label:elements:tile_cap ..." (default below; tile cap 0 = device maximum)
#   SKIP_TESTS=1       benchmarks only
#   BUDGET_S           no new benchmark starts after this many seconds (default 150)
#   VKSORT_TEST_DEVICE_NAME / VKSORT_TEST_EXPECT_SUBGROUP   default NVIDIA / 32
# Exit status: non-zero when the test or a benchmark check failed. Whole run: about 1-2 minutes.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build-gpu}
OUT=${OUT:-$BUILD/gpu-bitonic-variants}
mkdir -p "$OUT"

if [ -f .gpu/env.sh ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    # shellcheck disable=SC1091
    source .gpu/env.sh
fi
unset LP_NATIVE_VECTOR_WIDTH
if [ -z "${VKSORT_TEST_DEVICE:-}" ]; then
    export VKSORT_TEST_DEVICE_NAME=${VKSORT_TEST_DEVICE_NAME:-NVIDIA}
fi
export VKSORT_TEST_EXPECT_SUBGROUP=${VKSORT_TEST_EXPECT_SUBGROUP:-32}

TEST_BIN=$BUILD/tests/vk/test_vk_bitonic
BENCH_BIN=$BUILD/tests/vk/vksort_vk_bitonic_bench
for bin in "$TEST_BIN" "$BENCH_BIN"; do
    if [ ! -x "$bin" ]; then
        echo "gpu-bitonic-variants: $bin not found (build $BUILD with the Vulkan backend first)" >&2
        exit 2
    fi
done

RUNS=${BENCH_RUNS:-20}
LARGE_RUNS=${BENCH_LARGE_RUNS:-7}
SIZES=${BENCH_SIZES:-10,12,13,16,20,22,24}
# label:elements per invocation:tile cap. e16 is the default configuration.
VARIANTS=${VARIANTS:-"e16:16:0 e32:32:0 e8:8:0 e4:4:0 e16-t4096:16:4096 e32-t4096:32:4096 e16-t2048:16:2048"}
RESULTS=$OUT/results.txt
: >"$RESULTS"
status=0
start=$(date +%s)

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    "$TEST_BIN" --list-devices
} 2>&1 | tee "$OUT/environment.txt"

BUDGET=${BUDGET_S:-150} # no benchmark starts after this many seconds (the test runs last)
for v in $VARIANTS; do
    IFS=: read -r label elems tile <<<"$v"
    if [ $(($(date +%s) - start)) -gt "$BUDGET" ]; then
        echo "== variant $label skipped (time budget)"
        continue
    fi
    echo "== variant $label: $elems elements per invocation, tile cap $tile"
    timeout 60 "$BENCH_BIN" --sizes "$SIZES" --runs "$RUNS" --large-runs "$LARGE_RUNS" \
        --check-runs 2 --elems "$elems" --tile "$tile" --label "$label" >"$OUT/bench-$label.txt" 2>&1
    rc=$?
    grep -E "^(keys|pairs):|WRONG|failed|sorter:" "$OUT/bench-$label.txt"
    grep '^RESULT' "$OUT/bench-$label.txt" >>"$RESULTS"
    echo "bench $label exit status: $rc ($(($(date +%s) - start)) s so far)"
    [ "$rc" -eq 0 ] || status=1
done

if [ $(($(date +%s) - start)) -le "$BUDGET" ]; then
    echo "== per-pass breakdown, default variant (e16), keys and pairs"
    timeout 30 "$BENCH_BIN" --sizes 12,14,22 --runs 11 --large-runs 5 --check-runs 1 --passes \
        --label e16-passes >"$OUT/bench-passes.txt" 2>&1 || status=1
    grep -vE '^(RESULT|\||device|key )' "$OUT/bench-passes.txt" | grep -v '^$'
fi
if [ $(($(date +%s) - start)) -le "$BUDGET" ]; then
    echo "== stable sorts, default variant (rows e16-stable)"
    timeout 30 "$BENCH_BIN" --sizes 10,12,16,20 --runs 11 --large-runs 5 --check-runs 1 --stable \
        --label e16-stable >"$OUT/bench-stable.txt" 2>&1 || status=1
    grep '^RESULT' "$OUT/bench-stable.txt" >>"$RESULTS"
fi

if [ -z "${SKIP_TESTS:-}" ]; then
    # Whatever time is left of the 4 minutes (at least 60 s).
    left=$((230 - ($(date +%s) - start)))
    [ "$left" -ge 60 ] || left=60
    echo "== test_vk_bitonic --quick (validation on, timeout ${left} s)"
    timeout "$left" "$TEST_BIN" --quick >"$OUT/test.log" 2>&1
    rc=$?
    grep -E "^(ok|FAIL)|checks|validation messages|total" "$OUT/test.log"
    echo "test exit status: $rc"
    [ "$rc" -eq 0 ] || status=1
    echo "test: $rc" >>"$OUT/status.txt"
fi

# The table: one row per variant and mode, one column per size, median microseconds.
echo
echo "== bitonic variants on $(grep -m1 -o 'NVIDIA[^,]*' "$OUT/environment.txt" || echo 'this GPU'): median GPU us (timestamps), u32 keys / u32 keys + u32 payload"
awk '
    { key = $2 " " $3; if (!(key in seen)) { seen[key] = 1; rows[++nr] = key }
      t[key, $4] = $5; tile[key] = $8; wg[key] = $9
      if (!($4 in cs)) { cs[$4] = 1; cols[++nc] = $4 } }
    END {
        # sort the columns numerically
        for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++) if (cols[j] + 0 < cols[i] + 0) { x = cols[i]; cols[i] = cols[j]; cols[j] = x }
        printf "%-12s %-5s %5s %4s", "variant", "mode", "tile", "wg"
        for (i = 1; i <= nc; i++) printf " %9s", "2^" cols[i]
        printf "\n"
        for (r = 1; r <= nr; r++) {
            split(rows[r], p, " ")
            printf "%-12s %-5s %5s %4s", p[1], p[2], tile[rows[r]], wg[rows[r]]
            for (i = 1; i <= nc; i++) { v = t[rows[r], cols[i]]; printf " %9s", v == "" ? "-" : v }
            printf "\n"
        }
    }' "$RESULTS" | tee "$OUT/table.txt"
echo "gpu-bitonic-variants: logs in $OUT, $(($(date +%s) - start)) s, status $status"
exit $status
