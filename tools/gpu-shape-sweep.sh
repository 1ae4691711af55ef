#!/usr/bin/env bash
# Onesweep tile shapes on NVIDIA, on the GPU machine: which (workgroup, items) shapes of a
# workload's digit pass keep two workgroups per SM by registers, and how fast those are against
# the default. NVIDIA's compiler either fits a pass in the registers two workgroups leave an SM
# (65536 / (2 x workgroup), in steps of 8: 80 at 384 invocations, 88 at 352, 96 at 320, 112 at
# 288) or gives the second workgroup up and schedules wide (docs/perf-notes.md, eighteenth and
# forty-third sessions), so registers are read first (vksort-shader-stats) and only the shapes
# that fit are timed (tools/gpu-ab.sh, one process per cell, interleaved rounds).
#
#   tools/build-variants.sh main && tools/pack-variants.sh
#   # GPU machine, carry [".gpu", "gpu-pack"]:
#   tar -xJf gpu-pack/variants.tar.xz && source .gpu/env.sh && tools/gpu-shape-sweep.sh
#
# Environment: BUILD (a tools/build-variants.sh build, default gpu-exp/main), SHAPES ("W N"
# pairs, compact tiles), MODULE (the digit pass's module, default radix_onesweep_k32_v1: u32
# pairs), BASE (the default shape's flags), CASES (tools/gpu-ab.sh's, default u32 pairs 2^24 and
# 2^28), FALLBACK (1: also the _fb module's fitting shapes against BASE_FB at FALLBACK_CASES),
# SWEEP_GROUPS (persistent workgroups, default 264: two per SM of a 132-SM H100 or H200), LOGS
# (tools/gpu-ab.sh's logs, default /tmp/vksort-shape-sweep). Where OUT names a folder (the device
# machine's files to bring back), the logs' two tarballs are copied there (shapes.tgz,
# shapes-fb.tgz): few files come back from a call.
# Per width only the largest fitting item count is timed. Then (TEST=1, the default) every timed
# shape runs the sorting tests of test_vk_radix with that shape given to its sorters
# (--radix-wg ...; TEST_ONLY, each run cut at TEST_TIMEOUT seconds, none started once the script
# has run TEST_DEADLINE seconds), so one call tells whether a winner also sorts right on the GPU.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-gpu-exp/main}
SHAPES=${SHAPES:-"352 21 352 22 352 23 352 24 320 23 320 24 320 25 320 26 320 27 320 28 320 29 288 27 288 29 288 31 288 33"}
MODULE=${MODULE:-radix_onesweep_k32_v1}
SWEEP_GROUPS=${SWEEP_GROUPS:-264}
BASE=${BASE:---radix-wg 384 --radix-items 19 --radix-compact --radix-groups $SWEEP_GROUPS}
BASE_FB=${BASE_FB:---radix-fallback --radix-wg 384 --radix-items 17 --radix-compact --radix-groups $SWEEP_GROUPS}
CASES=${CASES:-u32pairs:onesweep:24 u32pairs:onesweep:28}
FALLBACK=${FALLBACK:-1}
FALLBACK_CASES=${FALLBACK_CASES:-u32pairs:onesweep:24}
LOGS=${LOGS:-/tmp/vksort-shape-sweep}
TEST=${TEST:-1}
TEST_ONLY=${TEST_ONLY:-test_matrix_small,test_flags_cross,test_indirect,test_sizes_large}
TEST_TIMEOUT=${TEST_TIMEOUT:-100}
TEST_DEADLINE=${TEST_DEADLINE:-450}
[ -x "$BUILD/vksort-shader-stats" ] || { echo "gpu-shape-sweep: no $BUILD/vksort-shader-stats" >&2; exit 2; }
mkdir -p "$LOGS"
build_name=$(basename "$BUILD")

# A wrapper variant gpu-exp/<name>: the build's benchmark with fixed flags.
variant() {
    local name=$1
    shift
    mkdir -p "gpu-exp/$name"
    printf '#!/bin/sh\nexec "$(dirname "$0")/../%s/vksort-gpu-bench" %s "$@"\n' "$build_name" "$*" \
        > "gpu-exp/$name/vksort-gpu-bench"
    chmod +x "gpu-exp/$name/vksort-gpu-bench"
}

# Registers of the first executable of `module` in vksort-shader-stats output on stdin.
registers() { awk -v m="$1" '$1 == m { f = 1 } f && /Register Count/ { print $NF; exit }'; }

echo "| shape | geometry | budget | $MODULE | ${MODULE}_fb |"
echo "| --- | --- | ---: | ---: | ---: |"
fit=""
fit_fb=""
set -- $SHAPES
while [ $# -ge 2 ]; do
    w=$1 n=$2
    shift 2
    budget=$((65536 / (2 * w) / 8 * 8))
    stats=$(timeout 120 "$BUILD/vksort-shader-stats" "$MODULE" "$w" "$n" 1 2>&1)
    # The geometry the sorter chose: the header of the configuration that reports the module.
    geo=$(printf '%s\n' "$stats" | awk -v m="$MODULE" '/^== / { h = $0 } $1 == m { print h; exit }' |
        sed -n 's/.*radix workgroup \([0-9]*\), \([0-9]*\) items.*, \([0-9]\) scatter.*/\1x\2 r\3/p')
    r=$(printf '%s\n' "$stats" | registers "$MODULE")
    rf=$(printf '%s\n' "$stats" | registers "${MODULE}_fb")
    echo "| $w x $n | ${geo:--} | $budget | ${r:--} | ${rf:--} |"
    [ "$geo" = "${w}x${n} r2" ] || continue # the sorter took another geometry
    [ -n "$r" ] && [ "$r" -le "$budget" ] && fit="$fit $w:$n"
    [ -n "$rf" ] && [ "$rf" -le "$budget" ] && fit_fb="$fit_fb $w:$n"
done

largest() { # the largest item count per width of "W:N ..." (nothing for none)
    [ -n "$1" ] || return 0
    printf '%s\n' $1 | awk -F: '$2 > best[$1] { best[$1] = $2 } END { for (w in best) print w ":" best[w] }'
}
variant default
variant base $BASE
variants="default base"
tests="" # "flags|label" per timed shape, for the correctness step
for s in $(largest "$fit"); do
    shape="--radix-wg ${s%:*} --radix-items ${s#*:} --radix-compact --radix-groups $SWEEP_GROUPS"
    variant "w${s%:*}x${s#*:}" $shape
    variants="$variants w${s%:*}x${s#*:}"
    tests="$tests${shape// /_}|w${s%:*}x${s#*:} "
done
echo
echo "timed: $variants"
VARIANTS="$variants" CASES="$CASES" OUT="$LOGS/shapes" tools/gpu-ab.sh
status=$?
if [ "$FALLBACK" = 1 ]; then
    variant fb-base $BASE_FB
    variants="fb-base"
    for s in $(largest "$fit_fb"); do
        variant "fb-w${s%:*}x${s#*:}" --radix-fallback --radix-wg "${s%:*}" --radix-items "${s#*:}" --radix-compact --radix-groups "$SWEEP_GROUPS"
        variants="$variants fb-w${s%:*}x${s#*:}"
        tests="$tests--lookback-fallback_--radix-wg_${s%:*}_--radix-items_${s#*:}_--radix-compact_--radix-groups_$SWEEP_GROUPS|fb-w${s%:*}x${s#*:} "
    done
    echo
    echo "timed with the look-back fallback: $variants"
    VARIANTS="$variants" CASES="$FALLBACK_CASES" WARM=0 OUT="$LOGS/shapes-fb" tools/gpu-ab.sh || status=1
fi
if [ "$TEST" = 1 ] && [ -n "$tests" ]; then
    echo
    echo "| shape | test_vk_radix ($TEST_ONLY) |"
    echo "| --- | --- |"
    for t in $tests; do
        flags=${t%|*} label=${t#*|}
        if [ "$SECONDS" -ge "$TEST_DEADLINE" ]; then
            echo "| $label | not run (${SECONDS} s: past TEST_DEADLINE) |"
            continue
        fi
        # shellcheck disable=SC2086
        VKSORT_TEST_ONLY=$TEST_ONLY timeout "$TEST_TIMEOUT" "$BUILD/test_vk_radix" --algo onesweep \
            ${flags//_/ } > "$LOGS/test-$label.txt" 2>&1
        rc=$?
        summary=$(grep -E '^[0-9]+ checks' "$LOGS/test-$label.txt" | tail -n1)
        [ "$rc" = 124 ] && summary="cut at ${TEST_TIMEOUT} s after $(grep -c '^ok ' "$LOGS/test-$label.txt") tests passed, $(grep -c '^FAIL' "$LOGS/test-$label.txt") failed"
        echo "| $label | rc $rc: ${summary:-no summary} |"
        case $rc in 0|124) ;; *) status=1 ;; esac
    done
    logs=$(cd "$LOGS" && ls test-*.txt 2>/dev/null)
    [ -z "$logs" ] || tar -C "$LOGS" -czf "$LOGS/tests.tgz" $logs
fi
if [ -n "${OUT:-}" ] && [ -d "$OUT" ]; then
    cp "$LOGS/tests.tgz" "$OUT/shape-tests.tgz" 2>/dev/null
    cp "$LOGS/shapes/ab.tgz" "$OUT/shapes.tgz" 2>/dev/null
    cp "$LOGS/shapes-fb/ab.tgz" "$OUT/shapes-fb.tgz" 2>/dev/null
fi
exit $status
