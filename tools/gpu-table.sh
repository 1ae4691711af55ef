#!/usr/bin/env bash
# The checked benchmark table on the GPU machine within one device call's limit: one
# vksort-gpu-bench process per group of counts, most important first (the issue #5 target
# counts 2^24, 2^28, 2^20, then the rest of 2^10-2^28, 16- and 24-bit ranges, depth keys, the
# per-frame mode), each skipped once too little of DEADLINE (seconds, default 560) is left, so
# that the call returns with what ran. Logs and CSVs go to $OUT (or gpu-table/). Exits 1 when a
# run failed (a failed check, a CUB error, or cut off by the deadline). tools/gpu-radix.sh's
# bench stage is this script without a deadline.
#
#   # BENCH: a vksort-gpu-bench built with CUDA (its libraries on LD_LIBRARY_PATH), e.g.
#   source .gpu/env.sh; BENCH=gpu-pack/build/bench/vksort-gpu-bench DEADLINE=540 tools/gpu-table.sh
#   # BENCH_ARGS: options added to every run, e.g. BENCH_ARGS=--total-timestamps (vksort timed
#   # between two timestamps around the sort, as CUB's events time it; sixty-first session)
#
# Measured on an H100 (forty-sixth session): 2^24 for four workloads and three sorters 63 s, 2^28
# 9 s, 2^20 11 s, 16-bit keys 2^16-2^24 76 s.
set -u
cd "$(dirname "$0")/.." || exit 2
BENCH=${BENCH:-build/bench/vksort-gpu-bench}
OUT=${OUT:-gpu-table}
DEADLINE=${DEADLINE:-560}
mkdir -p "$OUT"
start=$(date +%s)
status=0
left() { echo $(( DEADLINE - ($(date +%s) - start) )); }
B="$BENCH --copy-tbps ${COPY_TBPS:-4.2} --persistent-scratch ${BENCH_ARGS:-}"
run() { # name seconds-needed args...
    local name=$1 need=$2
    shift 2
    local l
    l=$(left)
    if [ "$l" -lt "$need" ]; then echo "SKIP $name (left $l s)"; return; fi
    local t0
    t0=$(date +%s)
    timeout $(( l - 5 )) $B "$@" --csv "$OUT/$name.csv" > "$OUT/$name.txt" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || status=1
    echo "$name rc $rc $(( $(date +%s) - t0 )) s"
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee "$OUT/smi.txt"
W=u32keys,u32pairs,f32pairs,u64keys
S=onesweep,portable,cub
run t24 70 --min-log2 24 --max-log2 24 --only $W --sorters $S
run t28 30 --min-log2 28 --max-log2 28 --only u32keys,u32pairs,f32pairs --sorters $S
run t20 30 --min-log2 20 --max-log2 20 --only $W --sorters $S
run small 120 --min-log2 10 --max-log2 19 --only $W --sorters bitonic,$S
run mid 120 --min-log2 21 --max-log2 23 --only $W --sorters bitonic,$S
run large 120 --min-log2 25 --max-log2 27 --only $W --sorters $S
run u64_28 30 --min-log2 28 --max-log2 28 --only u64keys --sorters $S
run bits16 90 --min-log2 16 --max-log2 24 --only u32keys,u32pairs,u64keys --bits 0:16 --sorters $S
run bits24 90 --min-log2 16 --max-log2 24 --only u32keys,u32pairs,u64keys --bits 0:24 --sorters $S
run depth 90 --min-log2 16 --max-log2 26 --only u32keys,u32pairs,f32pairs --dist depth --sorters $S
run frame 60 --frame 16 --min-log2 10 --max-log2 20 --only u32keys,u32pairs --sorters auto,cub
echo "gpu-table: $(( $(date +%s) - start )) s, status $status, logs in $OUT"
exit $status
