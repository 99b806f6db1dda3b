import Foundation
import ParallaxVision
import ParallaxMath

extension EstimatorCore {
    /// Tries to initialise the filter at frame time `t`:
    /// 1. from rest (``StaticInitializer``: gravity, gyro bias, accelerometer bias along gravity);
    /// 2. otherwise, once `motionInitializationDelay` seconds of IMU exist, from motion: roll and pitch
    ///    from the mean specific force over that span (the mean acceleration of hand-held or hovering
    ///    motion is small against g), zero velocity with a wide prior; the MSCKF updates of the next
    ///    frames make velocity, tilt and biases converge (reported `limited(initializing)` meanwhile).
    mutating func initialize(at t: Double, frame: FeatureFrame?, previousFrameTime: Double) {
        let upTo = imuBuffer.lastIndex { $0.timestamp <= t }
        guard let upTo, let start = firstIMUTime else { return }
        let first = max(start, resetTime ?? start)
        let samples = imuBuffer[...upTo]
        var nav: NavigationState
        var sigmas: [Double]
        let visuallyStill = stillSince.map { t - $0 >= configuration.staticInitializer.window * 0.5 } ?? false
        if visuallyStill, let r = StaticInitializer(configuration: configuration.staticInitializer).initialize(from: samples) {
            nav = r.state
            sigmas = [0.01, 0.01, 1e-3, 1e-3, 1e-3, 1e-3, 0.02, 0.02, 0.02, 3e-3, 3e-3, 3e-3, 0.05, 0.05, 0.05]
        } else {
            let span = configuration.motionInitializationDelay
            guard samples.last!.timestamp - first >= span else { return }
            // Average over everything since the start (up to 1 s): the longer the span, the smaller
            // the mean acceleration of hand-held motion against gravity.
            let from = samples.last!.timestamp - max(span, min(1.0, samples.last!.timestamp - first))
            var mean = Vector3.zero, meanGyro = Vector3.zero, count = 0.0
            for s in samples where s.timestamp >= from {
                mean += s.accel
                meanGyro += s.gyro
                count += 1
            }
            guard count >= 3, mean.norm > 1e-6 else { return }
            mean /= count
            var up = mean.normalized
            var tiltSigma = 0.05
            var vNow: Vector3?
            var velocitySigma = 1.0
            let aligned = VisualInertialAlignment(rig: rig).solve(frames: initFrames, samples: samples, noise: noise)
            if let aligned {
                // Velocity and gravity from the closed-form alignment of the last frames.
                up = -aligned.gravity.normalized
                vNow = aligned.velocity
                tiltSigma = 0.02
                velocitySigma = 0.1
            } else if isStereo {
                vNow = frame.flatMap { stereoVelocity($0, dt: t - previousFrameTime) }
                if let vNow, let g = stereoGravity(velocityNow: vNow, at: t) {
                    up = -g.normalized
                    tiltSigma = 0.02
                }
                if vNow != nil { velocitySigma = 0.15 }
            } else if samples.last!.timestamp - first < configuration.alignmentTimeout {
                return   // mono: wait for enough parallax to align
            }
            let rotation = StaticInitializer.gravityAlignedRotation(upInBody: up)
            nav = NavigationState(timestamp: samples.last!.timestamp,
                                  T_world_body: RigidTransform(rotationMatrix: rotation, translation: .zero))
            if let v = vNow { nav.velocity = rotation * v }
            sigmas = [tiltSigma, tiltSigma, 1e-3, 1e-3, 1e-3, 1e-3, velocitySigma, velocitySigma, velocitySigma,
                      0.02, 0.02, 0.02, 0.2, 0.2, 0.2]
        }
        if let anchor {
            // Re-initialisation after a reset: keep position and heading so the world frame stays put.
            let yawOld = atan2(anchor.rotation[1, 0], anchor.rotation[0, 0])
            let r = nav.T_world_body.rotationMatrix
            let yawNew = atan2(r[1, 0], r[0, 0])
            let rz = SO3.exp(Vector3(0, 0, yawOld - yawNew))
            nav.T_world_body = RigidTransform(rotationMatrix: rz * r, translation: anchor.position)
        }
        var s = FilterState(navigation: nav, sigmas: sigmas)
        s.timestamp = min(nav.timestamp, t)
        state = s
        framesSinceInit = 0
        recentUpdates.removeAll()
        tracks.removeAll()
        initFrames.removeAll()
    }

    /// Body velocity (in the body frame) from stereo points seen in the previous and current frame:
    /// with the gyro rotation R and P_cur = R P_prev + t, the camera moved by −t (median over points).
    func stereoVelocity(_ frame: FeatureFrame, dt: Double) -> Vector3? {
        guard isStereo, dt > 0, dt < 0.5, let rCurPrev = predictedCameraRotation(from: lastFrameTimeBefore(dt), to: lastFrameTime)
        else { return nil }
        var prev: [Int: TrackedFeature] = [:]
        for f in previousFeatures where f.rightNormalized != nil { prev[f.id] = f }
        let rbc = rig.R_body_cam0
        func point(_ f: TrackedFeature) -> Vector3? {
            guard let rn = f.rightNormalized else { return nil }
            let obs = [Observation(frame: 0, left: f.normalized, right: rn)]
            guard let xb = Triangulation.triangulate(obs, poses: [(.identity, .zero)], rig: rig, iterations: 3) else { return nil }
            return rbc.transpose * (xb - rig.p_body_cam0)
        }
        var tx: [Double] = [], ty: [Double] = [], tz: [Double] = []
        for f in frame.features {
            guard let p = prev[f.id], let a = point(p), let b = point(f), a.z < 8, b.z < 8 else { continue }
            let t = b - rCurPrev * a
            tx.append(t.x); ty.append(t.y); tz.append(t.z)
        }
        guard tx.count >= 10 else { return nil }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
        let tCam = Vector3(median(tx), median(ty), median(tz))
        // Camera displacement in the current camera frame is −t; in the body frame R_bc (−t).
        return rbc * (-tCam) / dt
    }

    /// Gravity in the current body frame from two stereo velocities (Dong-Si & Mourikis 2012 style
    /// closed form): with body velocities v_a, v_b and the IMU deltas ΔR, Δv over [a, b],
    /// R_aᵀ g Δt = ΔR v_b − v_a − Δv. Uses the oldest stored velocity at least 0.3 s old; nil when
    /// none exists or the magnitude is implausible.
    func stereoGravity(velocityNow vb: Vector3, at t: Double) -> Vector3? {
        guard let a = initVelocities.first(where: { t - $0.time >= 0.3 }) else { return nil }
        var pre = Preintegration(biasGyro: .zero, biasAccel: .zero, noise: noise)
        let samples = imuSlice(from: a.time)
        for segment in IMUSegment.split(samples, from: a.time, to: t, maxGap: 0.05) {
            pre.integrate(gyro: segment.gyro, accel: segment.accel, dt: segment.duration)
        }
        guard pre.deltaTime > 0.25 else { return nil }
        let ga = (pre.deltaRotation * vb - a.velocity - pre.deltaVelocity) / pre.deltaTime
        guard abs(ga.norm - 9.81) < 1.0 else { return nil }
        return pre.deltaRotation.transpose * ga      // in the current body frame
    }

    private func lastFrameTimeBefore(_ dt: Double) -> Double { lastFrameTime - dt }

    /// Packs the public result and decides the tracking state (ARKit semantics).
    func makeResult(timestamp: Double, timestampNs: Int64, frame: FeatureFrame?, featureCount: Int,
                    points: [TrackedFeaturePoint], timings: TrackingTimings) -> TrackingResult {
        guard let s = state else {
            let st: TrackingState = relocalizingFrames > 0 ? .limited(.relocalizing) : .notAvailable
            return TrackingResult(timestamp: timestamp, timestampNs: timestampNs, trackingState: st,
                                  T_world_body: nil, T_world_camera: nil, velocity: .zero, biasGyro: .zero,
                                  biasAccel: .zero, featurePoints: [], trackedFeatureCount: featureCount, timings: timings)
        }
        let T_wb = RigidTransform(rotationMatrix: s.rotation, translation: s.position)
        let trackingState: TrackingState
        let rate = (imuBuffer.last.map { $0.gyro - s.biasGyro } ?? .zero).norm
        if relocalizingFrames > 0 && framesSinceInit < relocalizingFrames {
            trackingState = .limited(.relocalizing)
        } else if framesSinceInit < 3 || velocitySigma(s) > configuration.convergedVelocitySigma {
            // Uncertain velocity: still converging after initialisation, or recovering later on
            // (after an IMU gap or a long blind stretch).
            trackingState = framesSinceInit < 40 ? .limited(.initializing) : .limited(.relocalizing)
        } else if frame == nil || featureCount < configuration.minimumFeatures {
            trackingState = .limited(.insufficientFeatures)
        } else if rate > configuration.excessiveAngularRate {
            trackingState = .limited(.excessiveMotion)
        } else {
            trackingState = .normal
        }
        return TrackingResult(timestamp: timestamp, timestampNs: timestampNs, trackingState: trackingState,
                              T_world_body: T_wb, T_world_camera: T_wb * T_body_cam0, velocity: s.velocity,
                              biasGyro: s.biasGyro, biasAccel: s.biasAccel, featurePoints: points,
                              trackedFeatureCount: featureCount, timings: timings)
    }
}
