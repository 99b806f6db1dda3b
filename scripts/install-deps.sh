#!/usr/bin/env bash
# Installs the Debian packages Parallax builds and runs against, only when missing.
# Safe to run any number of times. Needs root (or sudo) the first time.
set -euo pipefail
packages=(pkg-config libglfw3-dev libgl-dev libegl-dev libpng-dev libegl-mesa0 libgl1-mesa-dri)
# Recorded formats (ROS 1 bags, MCAP): chunk compression and JPEG images.
packages+=(libbz2-dev liblz4-dev libzstd-dev zlib1g-dev libturbojpeg0-dev)
# The bag/MCAP cross-check test runs the Python readers in a venv (scripts/test.sh makes it).
packages+=(python3-venv)
if [ "${PARALLAX_WITH_XVFB:-0}" = "1" ]; then packages+=(xvfb xauth); fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "Installing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
