#!/usr/bin/env bash
# Regenerates the bundled sample dataset Datasets/sample/ and Datasets/sample-estimate.txt.
#
# Datasets/sample: `parallax simulate` in Scenes/room.json, handheld motion around the table,
# 2 s (the first 0.5 s perfectly still), mono EuRoC cam0 752x480 at 10 Hz, ADIS16448 IMU at 200 Hz,
# ground truth at 200 Hz, truth/planes.json and truth/lighting.json; seed 42. Same command, same bytes.
# Size: the rendered room is richly textured and the images carry sensor noise, so each PNG is
# about 200 kB; 2 s of mono at 10 Hz keeps the folder at about 4.5 MB. For longer or stereo
# recordings run `parallax simulate` yourself (e.g. --duration 30 --stereo --rate-cam 20).
#
# Datasets/sample-estimate.txt: a stand-in for a tracker's output so the README's main job can run
# `parallax evaluate` on it. It is the ground truth at 20 Hz (every 10th 200 Hz row) with a
# deterministic perturbation (awk, no randomness):
#   - a rigid offset that 4-DoF (posyaw) alignment removes exactly: yaw 0.3 rad about z, then
#     translation (0.5, -0.2, 0.1) m;
#   - drift that alignment cannot remove: 1 cm/s along (1, 0.5, 0) plus a wobble
#     5 mm * (sin(2π·0.7 t), cos(2π·0.5 t), 0.5 sin(2π·0.3 t));
#   - a heading wobble of 0.005 rad * sin(2π·0.4 t) about z.
# t is seconds since the first row. Timestamps are copied exactly from the nanosecond column.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product parallax
bin="$(swift build --show-bin-path)/parallax"
rm -rf Datasets/sample
"$bin" simulate --scene Scenes/room.json --motion handheld --duration 2 --static-start 0.5 \
    --rate-cam 10 --rate-imu 200 --seed 42 -o Datasets/sample
gt=Datasets/sample/mav0/state_groundtruth_estimate0/data.csv
awk -F, '
BEGIN { pi = 3.14159265358979; yaw = 0.3; cy = cos(yaw); sy = sin(yaw); n = 0
        print "# timestamp tx ty tz qx qy qz qw  (ground truth of Datasets/sample, deterministically perturbed: see scripts/make-sample-dataset.sh)" }
/^#/ { next }
{
    if (n++ % 10 != 0) next
    ns = $1
    if (t0 == "") t0 = ns
    t = (ns - t0) / 1e9
    x = cy * $2 - sy * $3 + 0.5 + 0.01 * t * 1.0 + 0.005 * sin(2 * pi * 0.7 * t)
    y = sy * $2 + cy * $3 - 0.2 + 0.01 * t * 0.5 + 0.005 * cos(2 * pi * 0.5 * t)
    z = $4 + 0.1 + 0.0025 * sin(2 * pi * 0.3 * t)
    # q_out = q_z(yaw + wobble) * q (Hamilton), q = (w, x, y, z) = ($5, $6, $7, $8)
    a = (yaw + 0.005 * sin(2 * pi * 0.4 * t)) / 2; w1 = cos(a); z1 = sin(a)
    qw = w1 * $5 - z1 * $8; qx = w1 * $6 - z1 * $7; qy = w1 * $7 + z1 * $6; qz = w1 * $8 + z1 * $5
    printf "%s.%s %.6f %.6f %.6f %.9f %.9f %.9f %.9f\n", substr(ns, 1, length(ns) - 9), substr(ns, length(ns) - 8), x, y, z, qx, qy, qz, qw
}' "$gt" > Datasets/sample-estimate.txt
du -sh Datasets/sample
echo "wrote Datasets/sample and Datasets/sample-estimate.txt ($(grep -vc '^#' Datasets/sample-estimate.txt) poses)"
