#!/usr/bin/env bash
# A/B timing of builds from tools/build-variants.sh on the GPU machine, the way the perf notes
# compare them: one (workload, sorter, count) per process, WARM warm-up processes first, ROUNDS
# rounds interleaved over the variants, a persistent scratch (what a renderer sorting every
# frame creates). Logs go to $OUT/ab/<variant>-<workload>-<sorter>-<log2n>-<round>.txt and are
# tarred to $OUT/ab.tgz (few files come back from a device call); the table comes last.
#
#   tools/build-variants.sh main my-branch
#   # GPU machine, carry [".gpu", "gpu-exp"]:
#   source .gpu/env.sh; CASES="u32keys:onesweep:24 u32pairs:onesweep:28" tools/gpu-ab.sh
#
# Environment: VARIANTS (default: every gpu-exp/*/), CASES (workload:sorter:N, N a log2 count up
# to 40 or else the count itself, e.g. u32keys:onesweep:3145728; default
# u32 keys and pairs at 2^20, 2^24 and 2^28 with Onesweep), RUNS (20), ROUNDS (2), WARM (3),
# OUT (gpu-exp/out), BENCH_ARGS (extra vksort-gpu-bench arguments).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
VARIANTS=${VARIANTS:-$(for d in gpu-exp/*/; do [ -x "$d/vksort-gpu-bench" ] && basename "$d"; done)}
CASES=${CASES:-u32keys:onesweep:20 u32keys:onesweep:24 u32keys:onesweep:28 u32pairs:onesweep:20 u32pairs:onesweep:24 u32pairs:onesweep:28}
RUNS=${RUNS:-20}
ROUNDS=${ROUNDS:-2}
WARM=${WARM:-3}
OUT=${OUT:-gpu-exp/out}
BENCH_ARGS=${BENCH_ARGS:-}
[ -n "$VARIANTS" ] || { echo "gpu-ab: no gpu-exp/*/vksort-gpu-bench" >&2; exit 2; }
mkdir -p "$OUT/ab"

first=$(printf '%s\n' $VARIANTS | head -n1)
for _ in $(seq 1 "$WARM"); do
    gpu-exp/"$first"/vksort-gpu-bench --min-log2 20 --max-log2 20 --runs 5 --only u32keys \
        --sorters onesweep --persistent-scratch > /dev/null 2>&1
done

status=0
for round in $(seq 1 "$ROUNDS"); do
    for c in $CASES; do
        IFS=: read -r w s k <<< "$c"
        if [ "$k" -le 40 ]; then size=(--min-log2 "$k" --max-log2 "$k"); else size=(--count "$k"); fi
        for v in $VARIANTS; do
            # shellcheck disable=SC2086
            gpu-exp/"$v"/vksort-gpu-bench "${size[@]}" --runs "$RUNS" \
                --only "$w" --sorters "$s" --persistent-scratch $BENCH_ARGS \
                > "$OUT/ab/$v-$w-$s-$k-$round.txt" 2>&1 ||
                { echo "FAILED (or unsorted): $v $c round $round" >&2; status=1; }
        done
    done
done
tar -C "$OUT" -czf "$OUT/ab.tgz" ab

echo "| case | variant | ms per round | passes (round 1) |"
echo "| --- | --- | --- | --- |"
for c in $CASES; do
    IFS=: read -r w s k <<< "$c"
    for v in $VARIANTS; do
        ms=""
        for round in $(seq 1 "$ROUNDS"); do
            f="$OUT/ab/$v-$w-$s-$k-$round.txt"
            m=$(awk -v s="$s" '/^(2\^|[0-9])/ { for (i = 2; i <= NF; ++i) if ($i == s) print $(i + 1) }' "$f" | head -n1)
            grep -q UNSORTED "$f" && m="$m(UNSORTED)"
            ms="$ms ${m:--}"
        done
        passes=$(grep -m1 'passes:' "$OUT/ab/$v-$w-$s-$k-1.txt" | sed 's/^ *//; s/onesweep pass /p/g; s/\([0-9]\)us/\1/g')
        n=$k; [ "$k" -le 40 ] && n="2^$k"
        echo "| $w $s $n | $v |$ms | $passes |"
    done
done
exit $status
