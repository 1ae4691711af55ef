#!/usr/bin/env bash
# Builds the benchmark programs (vksort-gpu-bench, vksort_vk_bitonic_bench),
# vksort-shader-stats (registers per pipeline) and test_vk_radix (correctness there) of several
# commits or branches, without CUDA, into gpu-exp/<name>/ (gitignored: /gpu-exp/ in
# .git/info/exclude), so that one GPU-machine call can time them side by side, interleaved:
#
#   tools/build-variants.sh main rank-own-shared perf-tile-start
#   # carry [".gpu", "gpu-exp"]; on the GPU machine, after `source .gpu/env.sh`:
#   for v in gpu-exp/*/; do $v/vksort-gpu-bench --min-log2 24 --max-log2 24 --runs 10 \
#       --only u32keys --sorters onesweep; done
#
# Each binary embeds its own SPIR-V and links the library statically, so nothing else travels.
# Worktrees go to /tmp/vksort-variant-<name> and are removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: tools/build-variants.sh REV [REV...]" >&2; exit 2; }
mkdir -p gpu-exp
for rev in "$@"; do
    name=$(printf '%s' "$rev" | tr -c 'A-Za-z0-9._-' '_')
    wt=/tmp/vksort-variant-$name
    rm -rf "$wt"
    git worktree add -f --detach "$wt" "$rev" >/dev/null
    cmake -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=Release -DVKSORT_CUDA=OFF >/dev/null
    cmake --build "$wt/build" --target vksort-gpu-bench vksort_vk_bitonic_bench vksort-shader-stats test_vk_radix -j"$(nproc)" >/dev/null
    mkdir -p "gpu-exp/$name"
    cp "$wt/build/bench/vksort-gpu-bench" "$wt/build/bench/vksort-shader-stats" \
       "$wt/build/tests/vk/vksort_vk_bitonic_bench" "$wt/build/tests/vk/test_vk_radix" "gpu-exp/$name/"
    git -C "$wt" rev-parse --short HEAD > "gpu-exp/$name/commit"
    git worktree remove --force "$wt"
    echo "gpu-exp/$name: $(cat "gpu-exp/$name/commit")"
done
du -sh gpu-exp
