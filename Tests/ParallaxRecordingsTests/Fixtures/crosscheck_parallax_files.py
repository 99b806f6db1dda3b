"""Reads bags and MCAP files that `parallax convert` wrote with the independent Python readers
(`rosbags` for ROS 1 bags, `mcap` + `rosbags` CDR deserialization for MCAP) and prints, per topic,
the message count, the first and last header stamps, and a digest of all IMU values and image bytes.

Usage: python crosscheck_parallax_files.py FILE.bag|FILE.mcap ...
(venv: python3 -m venv /tmp/rec-venv && /tmp/rec-venv/bin/pip install rosbags mcap zstandard lz4)
"""
import hashlib
import sys
from pathlib import Path

from rosbags.rosbag1 import Reader as Bag1Reader
from rosbags.typesys import Stores, get_typestore


def stamp(msg):
    s = msg.header.stamp
    return s.sec * 1_000_000_000 + (s.nanosec if hasattr(s, "nanosec") else s.nsec)


def digest_message(h, msg):
    if hasattr(msg, "angular_velocity"):
        for v in (msg.angular_velocity, msg.linear_acceleration):
            h.update(f"{v.x!r} {v.y!r} {v.z!r};".encode())
    else:
        h.update(bytes(msg.data))


def summarize(rows):
    out = {}
    for topic, msg in rows:
        e = out.setdefault(topic, {"n": 0, "first": None, "last": None, "h": hashlib.sha256()})
        t = stamp(msg)
        e["n"] += 1
        e["first"] = t if e["first"] is None else e["first"]
        e["last"] = t
        digest_message(e["h"], msg)
    for topic in sorted(out):
        e = out[topic]
        print(f"{topic} {e['n']} {e['first']} {e['last']} {e['h'].hexdigest()[:16]}")


def bag_rows(path):
    store = get_typestore(Stores.ROS1_NOETIC)
    with Bag1Reader(path) as reader:
        for conn, _, raw in reader.messages():
            yield conn.topic, store.deserialize_ros1(raw, conn.msgtype)


def mcap_rows(path):
    from mcap.reader import make_reader
    store = get_typestore(Stores.ROS2_HUMBLE)
    with open(path, "rb") as f:
        for schema, channel, message in make_reader(f).iter_messages():
            name = schema.name.replace("/msg/", "/").replace("/", "/msg/", 1)
            if channel.message_encoding == "cdr":
                yield channel.topic, store.deserialize_cdr(message.data, name)
            else:
                yield channel.topic, get_typestore(Stores.ROS1_NOETIC).deserialize_ros1(message.data, name)


for arg in sys.argv[1:]:
    print(f"# {Path(arg).name}")
    summarize(bag_rows(Path(arg)) if arg.endswith(".bag") else mcap_rows(arg))
