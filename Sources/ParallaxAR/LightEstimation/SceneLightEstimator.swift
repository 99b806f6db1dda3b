import Foundation
import ParallaxImaging
import ParallaxMath
import ParallaxVision

/// The session's light estimator (``LightEstimator``): ambient intensity and colour temperature
/// from every image (``AmbientLightEstimator``), plus — once at least three differently oriented
/// planes are known — a primary directional light and order-2 spherical harmonics fitted to
/// the planes' shading (``DirectionalLightFit``), as ARCore's environmental HDR mode offers.
///
/// Plane shading is taken from the captured image, assumed undistorted (the session's default
/// `undistortsCapturedImage`), so `Camera.intrinsics` describe it. To follow light changes and
/// auto-exposure, each frame's plane medians are divided by that frame's raw ambient level, the
/// last `windowFrames` frames are pooled (median per plane), and the fit is rescaled by the
/// current ambient level.
public struct SceneLightEstimator: LightEstimator {
    /// The ambient part.
    public var ambient: AmbientLightEstimator
    /// Frames pooled for the plane fit.
    public var windowFrames: Int
    /// Pixel step of the plane sampling.
    public var planeSamplingStep: Int
    /// Fit the directional light every this many frames (the fit is cheap but not free).
    public var fitInterval: Int
    /// Per frame: plane id → (normal, normalised median, pixel count).
    private var history: [[String: (Vector3, Double, Int)]] = []
    private var lastFit: DirectionalLightFit?
    private var frameCount = 0

    /// Creates an estimator.
    public init(ambient: AmbientLightEstimator = AmbientLightEstimator(), windowFrames: Int = 30,
                planeSamplingStep: Int = 6, fitInterval: Int = 5) {
        self.ambient = ambient; self.windowFrames = max(1, windowFrames)
        self.planeSamplingStep = max(1, planeSamplingStep); self.fitInterval = max(1, fitInterval)
    }

    /// The estimate for one frame (see the type's description).
    public mutating func estimate(image: AnyImage, camera: Camera, planes: [PlaneAnchor]) -> LightEstimate {
        frameCount += 1
        let timestamp = Double(frameCount) / 30  // the protocol passes no time; the filter uses a nominal 30 Hz step
        let a = ambient.estimate(image: image, timestamp: timestamp)
        var result = LightEstimate(ambientIntensity: a.ambientIntensity, ambientColorTemperature: a.ambientColorTemperature)
        guard !planes.isEmpty, a.brightness.linearLuminance > 1e-6 else { return result }

        let lens = PinholeRadTanCamera(width: image.width, height: image.height,
                                       fx: camera.fx, fy: camera.fy, cx: camera.cx, cy: camera.cy)
        let shading = planes.map { ShadingPlane(id: $0.identifier.uuidString, normal: $0.normal, polygon: $0.worldBoundary) }
        var acc = PlaneShadingAccumulator(step: planeSamplingStep)
        acc.add(image: image, model: lens, T_world_camera: camera.poseOpenCV, planes: shading)
        var entry: [String: (Vector3, Double, Int)] = [:]
        for s in acc.samples(minimumPixels: 10) { entry[s.id] = (s.normal, s.radiance / a.brightness.linearLuminance, s.pixelCount) }
        history.append(entry)
        if history.count > windowFrames { history.removeFirst(history.count - windowFrames) }

        if frameCount % fitInterval == 0 || lastFit == nil {
            var pooled: [String: (Vector3, [Double], Int)] = [:]
            for frame in history {
                for (id, v) in frame {
                    pooled[id, default: (v.0, [], 0)].1.append(v.1)
                    pooled[id]?.2 += v.2
                }
            }
            let samples = pooled.keys.sorted().compactMap { id -> PlaneShadingSample? in
                guard let p = pooled[id] else { return nil }
                let sorted = p.1.sorted()
                return PlaneShadingSample(id: id, normal: p.0, radiance: sorted[sorted.count / 2], pixelCount: p.2)
            }
            lastFit = DirectionalLightFit.fit(samples) ?? lastFit
        }
        guard var fit = lastFit else { return result }
        // Back from "relative to the frame's mean" to this frame's linear level.
        fit.ambient *= a.brightness.linearLuminance
        fit.directional *= a.brightness.linearLuminance
        let env = EnvironmentLightEstimate(fit: fit, referenceLinearLuminance: ambient.referenceLinearLuminance)
        result.primaryLightDirection = env.primaryLightDirection
        result.primaryLightIntensity = env.primaryLightIntensity
        result.sphericalHarmonicsCoefficients = env.sphericalHarmonicsCoefficients
        return result
    }
}
