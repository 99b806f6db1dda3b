#!/usr/bin/env bash
# Builds the example packages in Examples/ (each depends on this checkout by path) and runs them on
# the bundled sample dataset: (a) TrackDataset, (b) LiveFeed, (c) PlaceOnPlane (renders a PNG; skipped
# with a note when no EGL display can be opened). The three share one build folder, so Parallax is
# compiled once. scripts/test.sh calls this. Usage: scripts/examples.sh [DATASET]
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
scratch="${PARALLAX_EXAMPLES_BUILD:-$repo/.build/examples}"
dataset="${1:-$repo/Datasets/sample}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

. "$repo/scripts/fresh-scratch.sh"
fresh_scratch "$scratch"

build() { swift build --package-path "Examples/$1" --scratch-path "$scratch" --product "$1" >&2; }
bin() { echo "$scratch/debug/$1"; }

for example in TrackDataset LiveFeed PlaceOnPlane; do build "$example"; done

printf '\n== (a) TrackDataset %s\n' "$dataset"
"$(bin TrackDataset)" "$dataset" | tee "$out/track.txt" | tail -3
grep -q "frames, " "$out/track.txt"

printf '\n== (b) LiveFeed %s\n' "$dataset"
"$(bin LiveFeed)" "$dataset" | tee "$out/live.txt" | grep -E "delegate|frame  5|frames;"
grep -q "delegate: 1 anchor(s) added" "$out/live.txt"

printf '\n== (c) PlaceOnPlane %s\n' "$dataset"
if "$(bin PlaceOnPlane)" "$dataset" "$out/ar.png" 2> "$out/place.err"; then
    test -s "$out/ar.png"
elif grep -qi "egl" "$out/place.err"; then
    echo "skipped: no EGL display ($(head -1 "$out/place.err"))"
else
    cat "$out/place.err" >&2
    exit 1
fi
echo "examples: ok"
