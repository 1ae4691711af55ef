#!/usr/bin/env bash
# The README's main command: installs dependencies, builds, then runs the main job: 16M random
# f32 keys with payloads sorted by the best available backend, verified, throughput printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
bash tools/build.sh
./build/src/cli/vksort run --type f32 --n 16M "$@"
