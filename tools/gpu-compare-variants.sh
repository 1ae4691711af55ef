#!/usr/bin/env bash
# Times the radix sorts of several builds side by side on a GPU machine (the H200), interleaved,
# one workload per process (the "slow process" state has hit the second workload of a process,
# docs/perf-notes.md). The builds come from tools/build-variants.sh, run here first:
#
#   tools/build-variants.sh main compact-tile      # -> gpu-exp/main, gpu-exp/compact-tile
#   # GPU machine, carry [".gpu", "gpu-exp"]:
#   source .gpu/env.sh; tools/gpu-compare-variants.sh
#
# For every variant directory under gpu-exp/ (VARIANTS to choose) and every workload of
# WORKLOADS: vksort-gpu-bench from 2^MIN to 2^MAX, RUNS runs each, the sorters of SORTERS, ROUNDS
# rounds over the variants; logs in $OUT/<variant>-<workload>-<round>.txt, then one table line
# per (n, variant, workload, sorter): the median milliseconds of each round.
#
# Environment: VARIANTS (default: every gpu-exp/*/), WORKLOADS (u32keys u32pairs), MIN (16),
# MAX (24), RUNS (20), SORTERS (onesweep,portable), ROUNDS (2), OUT (gpu-exp/compare).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
if [ -f .gpu/env.sh ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    # shellcheck disable=SC1091
    source .gpu/env.sh
fi
VARIANTS=${VARIANTS:-$(for d in gpu-exp/*/; do [ -x "$d/vksort-gpu-bench" ] && basename "$d"; done)}
WORKLOADS=${WORKLOADS:-u32keys u32pairs}
MIN=${MIN:-16}
MAX=${MAX:-24}
RUNS=${RUNS:-20}
SORTERS=${SORTERS:-onesweep,portable}
ROUNDS=${ROUNDS:-2}
OUT=${OUT:-gpu-exp/compare}
mkdir -p "$OUT"
[ -n "$VARIANTS" ] || { echo "gpu-compare-variants: no gpu-exp/*/vksort-gpu-bench" >&2; exit 2; }

status=0
for round in $(seq 1 "$ROUNDS"); do
    for w in $WORKLOADS; do
        for v in $VARIANTS; do
            gpu-exp/"$v"/vksort-gpu-bench --min-log2 "$MIN" --max-log2 "$MAX" --runs "$RUNS" \
                --only "$w" --sorters "$SORTERS" > "$OUT/$v-$w-$round.txt" 2>&1 ||
                { echo "FAILED (or unsorted): $v $w round $round" >&2; status=1; }
        done
    done
done
echo "| n | variant | workload | sorter | median ms per round |"
echo "| --- | --- | --- | --- | --- |"
for f in "$OUT"/*-1.txt; do
    base=$(basename "$f" -1.txt)
    v=${base%-*}
    w=${base##*-}
    cat "$OUT/$base"-*.txt | awk -v v="$v" -v w="$w" '
        /^(2\^|[0-9])/ {
            n = $1
            for (i = 2; i <= NF; ++i)
                if ($i ~ /^(bitonic|onesweep|portable|cub)$/ && $(i + 1) ~ /^[0-9.]+$/)
                    t[n " | " v " | " w " | " $i] = t[n " | " v " | " w " | " $i] " " $(i + 1)
        }
        END { for (k in t) print "| " k " |" t[k] " |" }' | sort -t'^' -k2 -n
done
exit $status
