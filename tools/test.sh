#!/usr/bin/env bash
# The README's test command: installs dependencies, builds with warnings as errors, runs every
# CTest suite (CPU, CLI, install, Vulkan on lavapipe with validation), then rebuilds with
# AddressSanitizer + UndefinedBehaviorSanitizer and runs the CPU tests under them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
bash tools/build.sh
# The "gpu" label holds the suites meant for a real GPU (tools/gpu-suite.sh); here they would
# only repeat the lavapipe runs.
(cd build && ctest --output-on-failure -j"$(nproc)" -LE gpu)

echo "== CPU tests under ASan + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKSORT_WERROR=ON \
  -DVKSORT_SANITIZE=ON -DVKSORT_VULKAN=OFF -DVKSORT_CUDA=OFF -DVKSORT_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -L cpu)
