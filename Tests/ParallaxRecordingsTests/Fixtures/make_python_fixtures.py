"""Writes python-rosbags.bag (rosbags, ROS 1, uncompressed) and python-mcap.mcap (mcap Writer,
zstd chunks, CDR serialized by rosbags) with 10 IMU messages (100 Hz) and 2 mono8 4x3 images
(10 Hz) whose values RecordingFixtureTests expects. Run: python make_python_fixtures.py
"""
from pathlib import Path

from rosbags.rosbag1 import Writer as Bag1Writer
from rosbags.typesys import Stores, get_typestore

T0 = 1_700_000_000_000_000_000


def messages(store, ros2):
    Time = store.types["builtin_interfaces/msg/Time"]
    Header = store.types["std_msgs/msg/Header"]
    Imu = store.types["sensor_msgs/msg/Imu"]
    Image = store.types["sensor_msgs/msg/Image"]
    Vector3 = store.types["geometry_msgs/msg/Vector3"]
    Quaternion = store.types["geometry_msgs/msg/Quaternion"]
    import numpy as np

    def header(t, frame):
        kw = dict(stamp=Time(sec=t // 10**9, nanosec=t % 10**9), frame_id=frame)
        return Header(**kw) if ros2 else Header(seq=0, **kw)

    out = []
    for i in range(10):
        t = T0 + i * 10_000_000
        out.append(("/imu", Imu, t, Imu(header=header(t, "imu"), orientation=Quaternion(x=0.0, y=0.0, z=0.0, w=1.0),
                                     orientation_covariance=np.zeros(9), angular_velocity=Vector3(x=0.5 * i, y=-0.25, z=0.125),
                                     angular_velocity_covariance=np.zeros(9),
                                     linear_acceleration=Vector3(x=1.0, y=2.0 + i, z=9.75),
                                     linear_acceleration_covariance=np.zeros(9))))
        if i % 10 in (0, 5):
            data = np.array([(3 * x + 7 * y + i) % 256 for y in range(3) for x in range(4)], dtype=np.uint8)
            out.append(("/cam0/image_raw", Image, t, Image(header=header(t, "cam0"), height=3, width=4, encoding="mono8",
                                                       is_bigendian=0, step=4, data=data)))
    return out


here = Path(__file__).parent
bag = here / "python-rosbags.bag"
bag.unlink(missing_ok=True)
store1 = get_typestore(Stores.ROS1_NOETIC)
with Bag1Writer(bag) as w:
    conns = {}
    for topic, typ, t, msg in messages(store1, ros2=False):
        if topic not in conns:
            conns[topic] = w.add_connection(topic, typ.__msgtype__, typestore=store1)
        w.write(conns[topic], t, store1.serialize_ros1(msg, typ.__msgtype__))

from mcap.writer import CompressionType, Writer as MCAPWriter

store2 = get_typestore(Stores.ROS2_HUMBLE)
with open(here / "python-mcap.mcap", "wb") as f:
    w = MCAPWriter(f, compression=CompressionType.ZSTD)
    w.start(profile="ros2", library="python mcap")
    channels = {}
    for topic, typ, t, msg in messages(store2, ros2=True):
        if topic not in channels:
            name = typ.__msgtype__
            text = store2.generate_msgdef(name, ros_version=2)[0]
            sid = w.register_schema(name=name, encoding="ros2msg", data=text.encode())
            channels[topic] = w.register_channel(topic=topic, message_encoding="cdr", schema_id=sid)
        w.add_message(channels[topic], log_time=t, publish_time=t, data=bytes(store2.serialize_cdr(msg, typ.__msgtype__)))
    w.finish()
