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
/// `undistortsCapturedImage`), so `Camera.intrinsics` describe it. A camera rarely sees three
/// differently oriented planes at once, so each plane keeps its last `windowFrames`
/// observations, each divided by the (filtered) ambient level of its frame so that light and
/// exposure changes cancel; the fit uses the median per plane and is rescaled by the current
/// ambient level. Assumes the planes share one albedo (grey-world).
public struct SceneLightEstimator: LightEstimator {
    /// The ambient part.
    public var ambient: AmbientLightEstimator
    /// Observations kept per plane for the fit.
    public var windowFrames: Int
    /// Pixel step of the plane sampling.
    public var planeSamplingStep: Int
    /// Fit the directional light every this many frames (the fit is cheap but not free).
    public var fitInterval: Int
    /// Per plane: normal, normalised medians (most recent last), pixel counts.
    private var history: [String: (normal: Vector3, values: [Double], pixels: Int)] = [:]
    private var lastFit: DirectionalLightFit?
    private var frameCount = 0

    /// Creates an estimator.
    public init(ambient: AmbientLightEstimator = AmbientLightEstimator(), windowFrames: Int = 30,
                planeSamplingStep: Int = 6, fitInterval: Int = 5) {
        self.ambient = ambient; self.windowFrames = max(1, windowFrames)
        self.planeSamplingStep = max(1, planeSamplingStep); self.fitInterval = max(1, fitInterval)
    }

    /// Most planes whose pixels are sampled per frame: every sampled pixel is tested against each
    /// of them, so without a limit the cost grows with the size of the plane map (a long session).
    public var maximumShadingPlanes = 8

    /// The planes whose boundary reaches into the image, largest first, at most `limit`.
    static func planesInView(_ planes: [PlaneAnchor], camera: Camera, limit: Int) -> [PlaneAnchor] {
        let w = Double(camera.imageResolution.width), h = Double(camera.imageResolution.height)
        let visible = planes.filter { p in
            let pts = p.worldBoundary.compactMap(camera.projectPoint)
            // Partly behind the camera (a floor under it): its in-front corners need not bound the view.
            if !pts.isEmpty && pts.count < p.worldBoundary.count { return true }
            guard let minX = pts.map(\.x).min(), let maxX = pts.map(\.x).max(),
                  let minY = pts.map(\.y).min(), let maxY = pts.map(\.y).max() else { return false }
            return maxX >= 0 && minX < w && maxY >= 0 && minY < h
        }
        return Array(visible.sorted { $0.geometry.area != $1.geometry.area ? $0.geometry.area > $1.geometry.area
                                                                           : $0.identifier.uuidString < $1.identifier.uuidString }
            .prefix(limit))
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
        // A detected plane's normal may point either way (walls especially); shading is seen on the
        // side facing the camera, so orient each normal towards it.
        let eye = camera.position
        let shading = Self.planesInView(planes, camera: camera, limit: maximumShadingPlanes).map { p -> ShadingPlane in
            let n = (eye - p.origin).dot(p.normal) >= 0 ? p.normal : -p.normal
            return ShadingPlane(id: p.identifier.uuidString, normal: n, polygon: p.worldBoundary)
        }
        var acc = PlaneShadingAccumulator(step: planeSamplingStep)
        acc.add(image: image, model: lens, T_world_camera: camera.poseOpenCV, planes: shading)
        let level = a.ambientIntensity / 1000 * ambient.referenceLinearLuminance
        for sample in acc.samples(minimumPixels: 10) {
            var h = history[sample.id] ?? (sample.normal, [], 0)
            h.normal = sample.normal
            h.values.append(sample.radiance / level)
            if h.values.count > windowFrames { h.values.removeFirst(h.values.count - windowFrames) }
            h.pixels = min(h.pixels + sample.pixelCount, 1 << 40)
            history[sample.id] = h
        }
        let live = Set(planes.map { $0.identifier.uuidString })
        history = history.filter { live.contains($0.key) }
        if frameCount % fitInterval == 0 || lastFit == nil {
            let samples = history.keys.sorted().compactMap { id -> PlaneShadingSample? in
                guard let h = history[id], !h.values.isEmpty else { return nil }
                let sorted = h.values.sorted()
                return PlaneShadingSample(id: id, normal: h.normal, radiance: sorted[sorted.count / 2], pixelCount: h.pixels)
            }
            lastFit = DirectionalLightFit.fit(samples) ?? lastFit
        }
        guard var fit = lastFit else { return result }
        // Back from "relative to the frame's mean" to this frame's linear level.
        fit.ambient *= level
        fit.directional *= level
        let env = EnvironmentLightEstimate(fit: fit, referenceLinearLuminance: ambient.referenceLinearLuminance)
        result.primaryLightDirection = env.primaryLightDirection
        result.primaryLightIntensity = env.primaryLightIntensity
        result.sphericalHarmonicsCoefficients = env.sphericalHarmonicsCoefficients
        return result
    }
}
