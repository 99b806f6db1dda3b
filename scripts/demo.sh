#!/usr/bin/env bash
# The main job of README.md: installs what is missing, builds a release `parallax`, and runs it on
# the bundled default data, writing its outputs under out/. Safe to run twice.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --product parallax
bin="$(swift build -c release --show-bin-path)/parallax"
mkdir -p out
dataset="Datasets/sample"
echo "== parallax info $dataset"
"$bin" info "$dataset"
echo
echo "== parallax evaluate (bundled estimate vs ground truth, 4-DoF alignment)"
"$bin" evaluate Datasets/sample-estimate.txt "$dataset/mav0/state_groundtruth_estimate0/data.csv" \
    --align posyaw --plot out/trajectory.png
echo
echo "== parallax render Scenes/showcase.json"
"$bin" render Scenes/showcase.json -o out/showcase.png --size 1280x720
echo
echo "Outputs: out/trajectory.png, out/showcase.png"
