#!/usr/bin/env bash
# Installs every Debian 12 package vksort needs to build, test and run.
# Idempotent and quiet: packages already present are skipped without touching apt.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  libvulkan-dev vulkan-validationlayers mesa-vulkan-drivers vulkan-tools
  glslc spirv-tools
  libglfw3-dev libpng-dev libtbb-dev
  xvfb x11-apps imagemagick xdotool
  gnuplot-nox graphviz
  python3 python3-numpy
  renderdoc python3-renderdoc librenderdoc-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
