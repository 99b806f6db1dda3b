#!/usr/bin/env python3
"""Reference figures from evo for Parallax's trajectory evaluation tests.

Makes small ground-truth fixtures from the real EuRoC trajectories in ../shared/trajectories,
derives estimates from them deterministically (a known rigid transform and scale, linear drift,
seeded noise, a time offset, and for the "jitter" variants timestamp jitter and dropped poses),
runs the evo_ape / evo_rpe command line tools on every pair and records their statistics,
the exact commands and the evo version in Tests/ParallaxEvaluationTests/Fixtures/evo/reference.json.

Usage (from the repository root, with evo installed: `pip install evo`):
    python3 scripts/evo-reference.py [path/to/bin/with/evo_ape]
"""
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "trajectories")
FIXTURES = os.path.join(ROOT, "Tests", "ParallaxEvaluationTests", "Fixtures", "evo")
BIN = sys.argv[1] if len(sys.argv) > 1 else ""

# name: (source file, first data line, keep every k-th line, number of poses)
SEQUENCES = {
    "V1_01": ("euroc_V1_01_easy.txt", 300, 1, 400),    # 20 Hz source
    "V2_02": ("euroc_V2_02_medium.txt", 3000, 10, 400),  # 200 Hz source, every 10th pose
}


def rot(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def quat_to_mat(x, y, z, w):
    n = np.sqrt(x * x + y * y + z * z + w * w)
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def mat_to_quat(r):
    # Shepperd's method; returns x, y, z, w with w >= 0.
    t = np.trace(r)
    if t > 0:
        s = np.sqrt(t + 1) * 2
        q = [(r[2, 1] - r[1, 2]) / s, (r[0, 2] - r[2, 0]) / s, (r[1, 0] - r[0, 1]) / s, 0.25 * s]
    elif r[0, 0] > r[1, 1] and r[0, 0] > r[2, 2]:
        s = np.sqrt(1 + r[0, 0] - r[1, 1] - r[2, 2]) * 2
        q = [0.25 * s, (r[0, 1] + r[1, 0]) / s, (r[0, 2] + r[2, 0]) / s, (r[2, 1] - r[1, 2]) / s]
    elif r[1, 1] > r[2, 2]:
        s = np.sqrt(1 + r[1, 1] - r[0, 0] - r[2, 2]) * 2
        q = [(r[0, 1] + r[1, 0]) / s, 0.25 * s, (r[1, 2] + r[2, 1]) / s, (r[0, 2] - r[2, 0]) / s]
    else:
        s = np.sqrt(1 + r[2, 2] - r[0, 0] - r[1, 1]) * 2
        q = [(r[0, 2] + r[2, 0]) / s, (r[1, 2] + r[2, 1]) / s, 0.25 * s, (r[1, 0] - r[0, 1]) / s]
    q = np.array(q)
    return -q if q[3] < 0 else q


def make_ground_truth(name, source, start, step, count):
    with open(os.path.join(SHARED, source)) as f:
        data = [l for l in f if l.strip() and not l.startswith("#")]
    lines = data[start:start + step * count:step]
    path = os.path.join(FIXTURES, f"gt_{name}.txt")
    with open(path, "w") as f:
        f.write(f"# {count} poses of ../shared/trajectories/{source} (data lines {start}, every {step}), unchanged\n")
        f.write("# timestamp tx ty tz qx qy qz qw\n")
        f.writelines(lines)
    rows = [l.split() for l in lines]
    return rows


def write_euroc_csv(name, rows):
    path = os.path.join(FIXTURES, f"gt_{name}.csv")
    with open(path, "w") as f:
        f.write("#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z [],v_RS_R_x [m s^-1]\n")
        for r in rows:
            whole, frac = r[0].split(".")
            ns = int(whole) * 10**9 + int(frac.ljust(9, "0"))
            f.write(f"{ns},{r[1]},{r[2]},{r[3]},{r[7]},{r[4]},{r[5]},{r[6]},0.0\n")


def make_estimate(name, rows, seed, jitter):
    rng = np.random.RandomState(seed)
    r0 = rot([0, 0, 1], np.deg2rad(40)) @ rot([1, 0, 0], np.deg2rad(5)) @ rot([0, 1, 0], np.deg2rad(-3))
    t0 = np.array([1.5, -2.0, 0.7])
    scale = 0.8
    drift = np.array([0.02, -0.01, 0.005])  # m/s
    yaw_rate = np.deg2rad(0.2)  # rad/s
    start = float(rows[0][0])
    out = []
    for k, r in enumerate(rows):
        t = float(r[0])
        p = np.array([float(v) for v in r[1:4]])
        rm = quat_to_mat(*[float(v) for v in r[4:8]])
        dt = t - start
        p = p + drift * dt + rng.normal(0, 0.01, 3)
        rm = rot([0, 0, 1], yaw_rate * dt) @ rm @ rot(rng.normal(0, 1, 3), np.deg2rad(0.3) * abs(rng.normal()))
        p_est = scale * (r0 @ p) + t0
        q_est = mat_to_quat(r0 @ rm)
        stamp = t + 0.003
        if jitter:
            if k % 7 == 3:
                continue  # dropped pose
            stamp = t + rng.uniform(-0.004, 0.004)
            if k % 23 == 5:
                stamp = t + 0.02  # too far from any ground-truth pose at 20 Hz? (0.03 to the next)
        out.append((stamp, p_est, q_est))
    if not jitter:
        out = out[10:-10]  # estimate covers a sub-range of the ground truth
    suffix = "_jitter" if jitter else ""
    path = os.path.join(FIXTURES, f"est_{name}{suffix}.txt")
    with open(path, "w") as f:
        f.write(f"# estimate derived from gt_{name}.txt by scripts/evo-reference.py (seed {seed})\n")
        for stamp, p, q in out:
            f.write(f"{stamp:.9f} {p[0]:.9f} {p[1]:.9f} {p[2]:.9f} {q[0]:.9f} {q[1]:.9f} {q[2]:.9f} {q[3]:.9f}\n")
    return os.path.basename(path)


def run_evo(tool, args):
    with tempfile.TemporaryDirectory() as tmp:
        zpath = os.path.join(tmp, "res.zip")
        cmd = [os.path.join(BIN, tool) if BIN else tool] + args
        subprocess.run(cmd + ["--no_warnings", "--save_results", zpath], cwd=FIXTURES, check=True,
                       stdout=subprocess.DEVNULL)
        with zipfile.ZipFile(zpath) as z:
            stats = json.loads(z.read("stats.json"))
            with z.open("error_array.npy") as f:
                count = int(np.load(f).shape[0])
    return " ".join([tool] + args), stats, count


ALIGN_FLAGS = {"none": [], "se3": ["--align"], "sim3": ["--align", "--correct_scale"]}


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    cases = []
    for index, (name, (source, start, step, count)) in enumerate(SEQUENCES.items()):
        rows = make_ground_truth(name, source, start, step, count)
        gt = f"gt_{name}.txt"
        estimates = [make_estimate(name, rows, 1000 + index, False), make_estimate(name, rows, 2000 + index, True)]
        if name == "V1_01":
            write_euroc_csv(name, rows)
        for est in estimates:
            refs = [gt] + ([f"gt_{name}.csv"] if name == "V1_01" and "jitter" not in est else [])
            for ref in refs:
                fmt = "euroc" if ref.endswith(".csv") else "tum"
                for align, flags in ALIGN_FLAGS.items():
                    cmd, stats, n = run_evo("evo_ape", [fmt, ref, est, "--pose_relation", "trans_part", "--t_max_diff", "0.01"] + flags)
                    cases.append({"kind": "ape", "reference": ref, "estimate": est, "align": align,
                                  "relation": "trans_part", "count": n, "command": cmd, "stats": stats})
                    if fmt == "euroc":
                        continue
                    deltas = [(1, "m")] + ([(20, "f")] if "jitter" not in est else [])
                    for delta, unit in deltas:
                        for relation in ["trans_part", "angle_deg"]:
                            cmd, stats, n = run_evo("evo_rpe", [fmt, ref, est, "--pose_relation", relation, "--delta", str(delta),
                                                                "--delta_unit", unit, "--t_max_diff", "0.01"] + flags)
                            cases.append({"kind": "rpe", "reference": ref, "estimate": est, "align": align,
                                          "relation": relation, "delta": delta, "delta_unit": unit, "count": n,
                                          "command": cmd, "stats": stats})
    # Extra options on the uniform V1_01 estimate: --all_pairs for RPE, --t_offset for association.
    est, ref = "est_V1_01.txt", "gt_V1_01.txt"
    for relation in ["trans_part", "angle_deg"]:
        cmd, stats, n = run_evo("evo_rpe", ["tum", ref, est, "--pose_relation", relation, "--delta", "1", "--delta_unit", "m",
                                            "--all_pairs", "--t_max_diff", "0.01", "--align"])
        cases.append({"kind": "rpe", "reference": ref, "estimate": est, "align": "se3", "relation": relation, "delta": 1,
                      "delta_unit": "m", "all_pairs": True, "count": n, "command": cmd, "stats": stats})
    for offset in ["0.5", "-0.25"]:
        cmd, stats, n = run_evo("evo_ape", ["tum", ref, est, "--pose_relation", "trans_part", "--t_max_diff", "0.01",
                                            "--t_offset", offset, "--align"])
        cases.append({"kind": "ape", "reference": ref, "estimate": est, "align": "se3", "relation": "trans_part",
                      "t_offset": float(offset), "count": n, "command": cmd, "stats": stats})
    out = {
        "evo_version": importlib.metadata.version("evo"),
        "numpy_version": np.__version__,
        "generator": "scripts/evo-reference.py",
        "note": "delta 20 f on the uniform 20 Hz estimates equals a 1 s delta; commands run inside this folder",
        "cases": cases,
    }
    with open(os.path.join(FIXTURES, "reference.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(cases)} reference cases")


if __name__ == "__main__":
    main()
