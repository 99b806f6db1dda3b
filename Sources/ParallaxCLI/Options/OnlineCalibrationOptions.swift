import Foundation
import ArgumentParser
import ParallaxTracking

/// Which parts of the calibration the filter refines online (`--online-calibration`).
struct OnlineCalibrationOptions: ParsableArguments {
    /// One refinable part of the calibration.
    enum Part: String, CaseIterable {
        case timeOffset = "time-offset", extrinsics, intrinsics, imu, defaults = "default", none
    }

    @Option(name: .customLong("online-calibration"),
            help: ArgumentHelp("Calibration the filter refines online, comma-separated: time-offset, extrinsics, intrinsics, imu, default, or none.",
                               discussion: "Default: time-offset, extrinsics and intrinsics (what 'default' stands for). Intrinsics are fx, fy, cx, cy, k1 and k2 per camera; in mono the extrinsics are the camera's rotation (its lever arm is held as sensor.yaml states it). imu is the IMU's scale factors and axis misalignments (gyroscope and accelerometer, 12 states), off by default: add it for an IMU without a factory calibration, e.g. --online-calibration default,imu. Applies to every replay path (tracking alone, --planes/--light/--render and the world-map options)."))
    var parts: String?

    /// The parts named (nil: the defaults); throws a ValidationError naming an unknown part.
    func selected() throws -> Set<Part>? {
        guard let parts else { return nil }
        var out = Set<Part>()
        for name in parts.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let p = Part(rawValue: name) else {
                throw ValidationError("--online-calibration: unknown part '\(name)' (known: \(Part.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            out.insert(p)
        }
        if out.contains(.none) && out.count > 1 {
            throw ValidationError("--online-calibration: 'none' cannot be combined with other parts")
        }
        return out
    }

    /// Applies the selection to `configuration` (nothing when the option is absent).
    func apply(to configuration: inout TrackerConfiguration) throws {
        guard var parts = try selected() else { return }
        if parts.remove(.defaults) != nil { parts.formUnion([.timeOffset, .extrinsics, .intrinsics]) }
        configuration.timeOffset.estimate = parts.contains(.timeOffset)
        let modes = Set(TrackerConfiguration.Mode.allCases)
        configuration.extrinsics.modes = parts.contains(.extrinsics) ? modes : []
        configuration.intrinsics.modes = parts.contains(.intrinsics) ? modes : []
        configuration.imuIntrinsics.modes = parts.contains(.imu) ? modes : []
    }
}
