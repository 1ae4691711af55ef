#!/usr/bin/env bash
# Packs gpu-exp/ (builds from tools/build-variants.sh, wrapper variants, call scripts) into one
# xz archive for a device call, whose carry holds 64 MiB in all: the binaries of one build share
# most of their bytes, and xz with a window over several of them keeps about 1 MB a variant
# (16 MB unpacked: bench, shader stats, test suite). Writes gpu-pack/variants.tar.xz
# (gitignored: /gpu-pack/ in .git/info/exclude) and prints its size.
#
#   tools/build-variants.sh main my-branch && tools/pack-variants.sh
#   # carry [".gpu", "gpu-pack"]; on the GPU machine:
#   tar -xJf gpu-pack/variants.tar.xz && source .gpu/env.sh && tools/gpu-ab.sh
#
# A wrapper variant times one build with other arguments, e.g. gpu-exp/fb/vksort-gpu-bench:
#   #!/bin/sh
#   exec "$(dirname "$0")/../main/vksort-gpu-bench" --radix-fallback "$@"
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d gpu-exp ] || { echo "pack-variants: no gpu-exp/ (tools/build-variants.sh)" >&2; exit 2; }
mkdir -p gpu-pack
rm -f gpu-pack/variants.tar.xz.tmp
tar --exclude=gpu-exp/out -cf - gpu-exp | xz -9e --threads=1 --lzma2=preset=9e,dict=256MiB \
    > gpu-pack/variants.tar.xz.tmp
mv gpu-pack/variants.tar.xz.tmp gpu-pack/variants.tar.xz
du -h gpu-pack/variants.tar.xz
