import Foundation
import ParallaxDatasets
import ParallaxMath

/// Writes the tracking-only `frames.jsonl` of `parallax replay --export`: one compact JSON object
/// per ``TrackingResult`` in ARKit conventions (`conventions.md`). The AR session's richer lines
/// (anchors, light) are written by ParallaxAR's `FrameExporter`.
///
/// The AR world `A` is fixed at the first pose: y up, origin at the first camera position, −z along
/// the first viewing direction projected on the horizontal plane. `Camera.transform =
/// T_A_W · T_W_B · T_B_Ccv · diag(1, −1, −1, 1)`. Numbers are printed with fixed formats so the
/// file is byte-identical for identical input.
public struct TrackingFrameExporter {
    private let handle: FileHandle
    private let camera: CameraCalibration
    private var T_A_W: RigidTransform?

    /// Creates (truncates) the file at `path`.
    public init(path: String, camera: CameraCalibration) throws {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: url)
        self.camera = camera
    }

    /// `T_A_W` from the first OpenCV camera pose in the z-up world.
    public static func arWorld(fromFirstCamera T_W_C: RigidTransform) -> RigidTransform {
        let up = Vector3(0, 0, 1)
        let forward = T_W_C.rotationMatrix * Vector3(0, 0, 1)
        var h = forward - up * forward.dot(up)
        if h.norm < 1e-6 { h = T_W_C.rotationMatrix * Vector3(0, -1, 0) - up * (T_W_C.rotationMatrix * Vector3(0, -1, 0)).dot(up) }
        h = h.normalized
        let zA = -h, yA = up, xA = yA.cross(zA)
        let R_W_A = Matrix3(columns: xA, yA, zA)
        return RigidTransform(rotationMatrix: R_W_A, translation: T_W_C.translation).inverse
    }

    /// Appends one frame.
    public mutating func write(_ r: TrackingResult) throws {
        if T_A_W == nil, let c = r.T_world_camera { T_A_W = Self.arWorld(fromFirstCamera: c) }
        var fields: [String] = []
        // Seconds printed from the integer nanoseconds, so no digit is lost to Double rounding.
        let ns = r.timestampNs
        let sign = ns < 0 ? "-" : ""
        fields.append("\"timestamp\":\(sign)\(abs(ns) / 1_000_000_000).\(String(format: "%09lld", abs(ns) % 1_000_000_000))")
        fields.append("\"timestamp_ns\":\(r.timestampNs)")
        fields.append("\"tracking_state\":\"\(r.trackingState.name)\"")
        fields.append("\"tracking_state_reason\":" + (r.trackingState.reason.map { "\"\($0.rawValue)\"" } ?? "null"))
        let k = camera.intrinsics
        fields.append(String(format: "\"intrinsics\":[[%.6f,0,%.6f],[0,%.6f,%.6f],[0,0,1]]", k.fu, k.cu, k.fv, k.cv))
        fields.append("\"image_resolution\":[\(camera.width),\(camera.height)]")
        // Camera–IMU time offset in use (s, timeshift_cam_imu): the pose is at timestamp + offset on the IMU clock.
        fields.append(String(format: "\"time_offset\":%.9f", r.timeOffset))
        if let c = r.T_world_camera, let a = T_A_W {
            let T = (a * c).matrix
            // Column-major like ARKit's simd_float4x4, after flipping camera y and z.
            var cols: [String] = []
            for j in 0..<4 {
                let s: Double = (j == 1 || j == 2) ? -1 : 1
                cols.append("[" + (0..<4).map { String(format: "%.6f", T[$0, j] * s) }.joined(separator: ",") + "]")
            }
            fields.append("\"camera_transform\":[" + cols.joined(separator: ",") + "]")
            let pts = r.featurePoints.map { p -> String in
                let q = a * p.position_world
                return String(format: "{\"id\":%d,\"position\":[%.5f,%.5f,%.5f]}", p.id, q.x, q.y, q.z)
            }
            fields.append("\"feature_points\":[" + pts.joined(separator: ",") + "]")
        } else {
            fields.append("\"camera_transform\":null")
            fields.append("\"feature_points\":[]")
        }
        handle.write(Data(("{" + fields.joined(separator: ",") + "}\n").utf8))
    }

    /// Closes the file.
    public func close() throws { try handle.close() }
}
