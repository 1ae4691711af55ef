#!/usr/bin/env bash
# Configures and builds vksort into build/ (Release, warnings as errors). Extra arguments go to
# the CMake configure step, e.g. tools/build.sh -DVKSORT_CUDA=OFF.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DVKSORT_WERROR=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
