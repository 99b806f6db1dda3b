#!/usr/bin/env bash
# Generates the simulated datasets the tracking tests use (once; the tests also generate them
# through the Simulation library when absent). Mono tests use cam0 of the stereo datasets.
# Usage: scripts/make-tracking-datasets.sh [cache-dir]   (default /tmp/parallax-sim, or $PARALLAX_SIM_CACHE)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${1:-${PARALLAX_SIM_CACHE:-/tmp/parallax-sim}}"
bin="${PARALLAX_BIN:-$root/.build/release/parallax}"
[ -x "$bin" ] || { echo "build first: swift build -c release $("$root/scripts/cpu-flags.sh" | tr "\n" " ") --product parallax (or set PARALLAX_BIN)" >&2; exit 1; }
mkdir -p "$cache"
# Same worlds as Tests/ParallaxTrackingTests/TrackingFixtures.swift: V1_01 in the room, Gore in the hall.
for pair in euroc_V1_01_easy:room udel_gore:hall; do
  trajectory="${pair%%:*}"; scene="${pair##*:}"
  out="$cache/$trajectory-$scene-stereo-30s-20hz"
  if [ -f "$out/mav0/cam0/data.csv" ]; then echo "exists: $out"; continue; fi
  tmp="$out.partial-$$"
  rm -rf "$tmp"
  "$bin" simulate --scene "$root/Scenes/$scene.json" --trajectory "$root/../shared/trajectories/$trajectory.txt" \
    --duration 30 --stereo --seed 1 --rate-cam 20 -o "$tmp"
  rm -rf "$out" && mv "$tmp" "$out"
done
