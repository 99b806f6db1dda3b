#!/usr/bin/env bash
# Remakes the place-recognition vocabulary shipped in Sources/ParallaxMapping/Resources/default.voc
# (docs/world-maps.md, "Vocabulary"): simulates the three training datasets when they are not
# cached yet (the same folders the test suites cache), then trains on every 4th cam0 image.
# Training is deterministic: the same datasets give a byte-identical file.
# Usage: scripts/make-vocabulary.sh [output.voc] [cache-dir]
#   defaults: Sources/ParallaxMapping/Resources/default.voc, $PARALLAX_SIM_CACHE or /tmp/parallax-sim
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
output="${1:-$root/Sources/ParallaxMapping/Resources/default.voc}"
cache="${2:-${PARALLAX_SIM_CACHE:-/tmp/parallax-sim}}"
bin="${PARALLAX_BIN:-$root/.build/release/parallax}"
[ -x "$bin" ] || { echo "build first: swift build -c release $("$root/scripts/cpu-flags.sh" | tr "\n" " ") --product parallax (or set PARALLAX_BIN)" >&2; exit 1; }
trajectories="$root/../shared/trajectories"
mkdir -p "$cache"
# name | simulate arguments (seed 1, EuRoC cameras and noise, 20 Hz)
datasets=(
  "tumvi_room2-room-mono-30s-20hz|--scene $root/Scenes/room.json --trajectory $trajectories/tumvi_room2.txt --duration 30 --seed 1"
  "planes-rpng_table_01-room-mono-20s-s1|--scene $root/Scenes/room.json --trajectory $trajectories/rpng_table_01.txt --duration 20 --seed 1"
  "udel_gore-hall-stereo-30s-20hz|--scene $root/Scenes/hall.json --trajectory $trajectories/udel_gore.txt --duration 30 --stereo --seed 1 --rate-cam 20"
)
folders=()
for entry in "${datasets[@]}"; do
  name="${entry%%|*}"; arguments="${entry#*|}"
  out="$cache/$name"
  folders+=("$out")
  if [ -f "$out/mav0/cam0/data.csv" ]; then echo "exists: $out"; continue; fi
  tmp="$out.partial-$$"
  rm -rf "$tmp"
  # shellcheck disable=SC2086  # the arguments are words on purpose
  "$bin" simulate $arguments -o "$tmp"
  rm -rf "$out" && mv "$tmp" "$out"
done
"$bin" vocabulary train "${folders[@]}" --stride 4 --branching 8 --depth 4 --max-descriptors 200000 -o "$output"
