import Foundation
import ParallaxDatasets
import ParallaxMath

/// Writes the tracking-only `frames.jsonl` of `parallax replay --export`: one JSON object per
/// ``TrackingResult`` in ARKit conventions, in the same schema as the AR session's lines
/// (`docs/frames.schema.json`, version 2, written by ParallaxAR's `FrameExporter`): the same keys,
/// with no anchor events, no light estimate, and the camera–IMU `timeOffset` added.
///
/// The AR world `A` is fixed at the first pose: y up, origin at the first camera position, −z along
/// the first viewing direction projected on the horizontal plane. `Camera.transform =
/// T_A_W · T_W_B · T_B_Ccv · diag(1, −1, −1, 1)`, written row-major as `camera.transform` (the only place
/// the camera pose appears). Numbers are printed with fixed formats so the file is byte-identical
/// for identical input; frames before the first pose carry the identity and no feature points.
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
        if T_A_W == nil, let c = r.displayedCamera { T_A_W = Self.arWorld(fromFirstCamera: c) }
        handle.write(Data((line(for: r) + "\n").utf8))
    }

    /// The JSON line of one result (schema version 2, the AR session's dialect without anchors or light).
    func line(for r: TrackingResult) -> String {
        let style = JSONNumberStyle(zeroBelow: 5e-7, nonFiniteAsNull: true)
        // OpenCV camera (y down, z forward) → AR camera (y up, z backward): flip y and z.
        let flip = RigidTransform(rotationMatrix: Matrix3(diagonal: Vector3(1, -1, -1)), translation: .zero)
        var transform = Matrix4.identity
        var euler = Vector3.zero
        var points: [String] = []
        if let c = r.displayedCamera, let a = T_A_W {
            let T = a * c * flip
            transform = T.matrix
            let e = Quaternion(rotationMatrix: transform.upperLeft3x3).eulerAnglesARKit
            euler = Vector3(e.pitch, e.yaw, e.roll)
            points = r.featurePoints.sorted { $0.id < $1.id }.map { p in
                let q = a * p.position_world
                return "[\(p.id), \(style.number(q.x)), \(style.number(q.y)), \(style.number(q.z))]"
            }
        }
        // The filter's online intrinsics when it estimates them, else the calibration's.
        let k = camera.intrinsics
        let intrinsics = r.cameraIntrinsics.first.map { Array($0.prefix(4)) } ?? [k.fu, k.fv, k.cu, k.cv]
        var s = Self.lineHead(timestampNs: r.timestampNs, time: r.timestamp, transform: transform,
                              intrinsics: intrinsics, resolution: (camera.width, camera.height),
                              trackingState: r.trackingState, eulerAngles: euler)
        s += "\"featurePoints\": [" + points.joined(separator: ", ") + "], "
        s += "\"anchorEvents\": {\"added\": [], \"updated\": [], \"removed\": []}, "
        s += "\"lightEstimate\": null, "
        // Camera–IMU time offset in use (s, timeshift_cam_imu): the pose is at time + offset on the IMU clock.
        s += String(format: "\"timeOffset\": %.9f", r.timeOffset)
        // The rolling-shutter readout (s) when the tracker estimates it (sensor.yaml states none).
        if let readout = r.estimatedReadout { s += String(format: ", \"readout\": %.6f", readout) }
        s += calibration(r, style: style) + "}"
        return s
    }

    /// `, "calibration": {...}` with what the filter estimates online (each camera's `T_body_camera`
    /// row-major when the extrinsics are estimated, `[fx, fy, cx, cy, k1, k2]` when the intrinsics
    /// are, and the IMU's scale and misalignment corrections when those are); empty when it
    /// estimates none of them.
    func calibration(_ r: TrackingResult, style: JSONNumberStyle) -> String {
        guard r.extrinsicsEstimated || !r.cameraIntrinsics.isEmpty || r.imuIntrinsics != nil else { return "" }
        let extrinsics = r.extrinsicsEstimated ? r.cameraExtrinsics.map { e in
            "[" + (0..<4).flatMap { i in (0..<4).map { style.number(e.matrix[i, $0]) } }.joined(separator: ", ") + "]"
        } : []
        let intrinsics = r.cameraIntrinsics.map { "[" + $0.map(style.number).joined(separator: ", ") + "]" }
        var imu = ""
        if let c = r.imuIntrinsics {
            func v(_ x: Vector3) -> String { "[" + [x.x, x.y, x.z].map(style.number).joined(separator: ", ") + "]" }
            imu = ", \"imuIntrinsics\": {\"gyroScale\": \(v(c.gyroScale)), \"gyroMisalignment\": \(v(c.gyroMisalignment)), "
                + "\"accelScale\": \(v(c.accelScale)), \"accelMisalignment\": \(v(c.accelMisalignment))}"
        }
        return ", \"calibration\": {\"cameraExtrinsics\": [" + extrinsics.joined(separator: ", ")
            + "], \"cameraIntrinsics\": [" + intrinsics.joined(separator: ", ") + "]" + imu + "}"
    }

    /// The start of a `frames.jsonl` line, shared by every writer of the schema (this one and the
    /// AR session's `FrameExporter`): version, timestamps and the `camera` object, up to and
    /// including `"camera": {…}, `.
    public static func lineHead(timestampNs: Int64, time: Double, transform: Matrix4, intrinsics: [Double],
                                resolution: (Int, Int), trackingState: TrackingState, eulerAngles: Vector3) -> String {
        let style = JSONNumberStyle(zeroBelow: 5e-7, nonFiniteAsNull: true)
        var s = "{\"version\": \(schemaVersion), \"timestamp\": \(timestampNs), \"time\": \(style.number(time)), \"camera\": {"
        s += "\"transform\": \(style.matrix(transform)), "
        s += "\"intrinsics\": [" + intrinsics.map(style.number).joined(separator: ", ") + "], "
        s += "\"resolution\": [\(resolution.0), \(resolution.1)], "
        s += "\"trackingState\": \"\(trackingState.name)\", "
        s += "\"trackingStateReason\": \(trackingState.reason.map { "\"\($0.rawValue)\"" } ?? "null"), "
        s += "\"eulerAngles\": \(style.vector(eulerAngles))}, "
        return s
    }

    /// The `version` of the `frames.jsonl` schema (`docs/frames.schema.json`).
    public static let schemaVersion = 2

    /// Closes the file.
    public func close() throws { try handle.close() }
}
