#!/usr/bin/env bash
# The main job of README.md: installs what is missing, builds a release `parallax`, and runs the
# whole path on bundled data — dataset summary, visual-inertial tracking with accuracy figures,
# a simulated walk replayed through the AR session (planes, light, composited AR frames),
# and a rendered scene. Outputs go to out/. Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# Compiled for this machine's CPU family where it has AVX2 (scripts/cpu-flags.sh says why).
cpu=($(./scripts/cpu-flags.sh))  # words without spaces; a bad PARALLAX_CPU stops here
swift build -c release "${cpu[@]}" --product parallax
bin="$(swift build -c release --show-bin-path)/parallax"
mkdir -p out
sample="Datasets/sample"
step() { printf '\n== %s\n' "$*"; }

step "parallax info $sample"
"$bin" info "$sample"

step "parallax replay $sample (tracking, ATE against the bundled ground truth)"
"$bin" replay "$sample" --export out/sample-frames.jsonl --trajectory out/sample-est.txt

step "parallax evaluate trajectory (4-DoF alignment, plot)"
"$bin" evaluate trajectory out/sample-est.txt "$sample/mav0/state_groundtruth_estimate0/data.csv" --align posyaw \
    --plot out/sample-trajectory.png

walk="out/handheld"
# A walk simulated before truth/surfaces.json was written is simulated again.
if [ ! -f "$walk/truth/surfaces.json" ]; then
    step "parallax simulate: an 8 s handheld walk through Scenes/room.json (seed 7)"
    "$bin" simulate --scene Scenes/room.json --motion handheld --duration 8 --static-start 1 --seed 7 -o "$walk"
fi

step "parallax replay $walk with the AR session: planes, light, AR frames"
"$bin" replay "$walk" --planes --light --export out/frames.jsonl --trajectory out/handheld-est.txt \
    --render out/ar --every 4

step "parallax evaluate planes $walk (tracked poses vs truth/planes.json; hits vs truth/surfaces.json)"
"$bin" evaluate planes "$walk" --pose-source tracking

step "parallax evaluate light $walk (vs truth/lighting.json)"
"$bin" evaluate light "$walk"

step "parallax render Scenes/showcase.json"
"$bin" render Scenes/showcase.json -o out/showcase.png --size 1280x720

printf '\nOutputs in out/: sample-frames.jsonl, sample-est.txt, sample-trajectory.png, frames.jsonl, ar/*.png, showcase.png\n'
