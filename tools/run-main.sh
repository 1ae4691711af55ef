#!/usr/bin/env bash
# The README's main command: installs dependencies, builds, then runs the particle demo
# (docs/demo.md): millions of alpha-blended sprites depth-sorted every frame. In a window when a
# display is there; otherwise headless for 300 frames, writing the last frame to vksort-demo.png.
# Arguments go to the demo (then nothing is added), e.g. --sort cuda --particles 16M.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
bash tools/build.sh
if [ $# -gt 0 ]; then
  exec ./build/demo/vksort-demo "$@"
fi
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/demo/vksort-demo --headless --frames 300 --screenshot vksort-demo.png
fi
exec ./build/demo/vksort-demo
