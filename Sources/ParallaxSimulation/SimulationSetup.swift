import Foundation
import ParallaxMath
import ParallaxSceneGraph

/// Placing trajectories in scenes: where presets move, and where a recorded trajectory goes.
public enum SimulationSetup {
    /// The alignment that puts the world origin at the centre of the scene's floor.
    public static func floorAlignment(for scene: Scene) -> SceneAlignment { SceneAlignment.centred(on: scene) }

    /// Preset settings centred on the scene's largest table (the largest horizontal surface
    /// above the floor), or on the floor's centre when there is none. Orbit and loop radii shrink
    /// to keep the camera at least 0.4 m inside the floor's bounds.
    public static func motionSettings(for scene: Scene, alignment: SceneAlignment, base: MotionSettings = MotionSettings()) -> MotionSettings {
        let planes = ScenePlanes.extract(from: scene, alignment: alignment)
        var settings = base
        let floor = planes.filter { $0.kind == .floor }.max { $0.area < $1.area }
        if let table = planes.filter({ $0.kind == .table }).max(by: { $0.area < $1.area }) {
            settings.centre = Vector3(table.centre.x, table.centre.y, floor?.centre.z ?? 0)
            settings.targetHeight = table.centre.z - (floor?.centre.z ?? 0)
        } else if let floor {
            settings.centre = floor.centre
        }
        if let floor {
            let xs = floor.polygon.map(\.x), ys = floor.polygon.map(\.y)
            if let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() {
                let room = min(settings.centre.x - x0, x1 - settings.centre.x, settings.centre.y - y0, y1 - settings.centre.y) - 0.4
                settings.radius = max(0.3, min(settings.radius, room))
            }
        }
        return settings
    }

    /// An alignment that puts a recorded trajectory inside the scene: its horizontal bounding-box
    /// centre above the floor's centre, turned by 90° about the vertical when that fits the
    /// floor's extent better; heights kept when they lie between 0.1 m and 2.8 m above the floor
    /// (z = 0 is then the floor, as in EuRoC's Vicon rooms), otherwise shifted so the mean height
    /// is 1.4 m (trajectories whose origin is the start pose, e.g. udel_gore). The world frame
    /// stays the file's frame: only `T_scene_world` changes. When the scene has a ceiling high
    /// enough for the trajectory's whole height range, a shifted trajectory is moved up or down
    /// as little as needed to stay 1 m above the floor and 0.5 m below the ceiling. A trajectory
    /// larger than the room still leaves it (udel_gore, 25 × 16 m: use `Scenes/hall.json`).
    public static func alignment(for trajectory: CumulativeBSpline, scene: Scene) -> SceneAlignment {
        let floorAlignment = SceneAlignment.centred(on: scene)
        let (lo, hi, mean) = bounds(of: trajectory)
        let centre = (lo + hi) / 2
        let planes = ScenePlanes.extract(from: scene, alignment: floorAlignment)
        let dz = verticalShift(lo: lo, hi: hi, mean: mean, planes: planes)
        var yaw = 0.0
        if let room = floorExtent(planes) {
            let size = Vector2(hi.x - lo.x, hi.y - lo.y)
            let overflow = max(size.x - room.x, 0) + max(size.y - room.y, 0)
            let overflowTurned = max(size.y - room.x, 0) + max(size.x - room.y, 0)
            if overflowTurned < overflow { yaw = .pi / 2 }
        }
        // Scene point where the trajectory's centre (at floor height) goes.
        let target = floorAlignment.T_scene_world * Vector3(0, 0, dz)
        let rotation = SceneAlignment(yaw: yaw).T_scene_world.rotation
        let translation = target - rotation.act(Vector3(centre.x, centre.y, 0))
        return SceneAlignment(T_scene_world: RigidTransform(rotation: rotation, translation: translation))
    }

    /// When `trajectory` is wider than `scene`'s floor along either horizontal axis, whichever
    /// way ``alignment(for:scene:)`` turns it: both horizontal extents (m, trajectory and floor,
    /// the trajectory's sorted to match the floor's longer side first); nil when it fits or the
    /// scene has no floor. Such a camera leaves the scene and sees nothing for a while (the
    /// EuRoC machine-hall flights or the Gore walk in the room scene).
    public static func overflow(of trajectory: CumulativeBSpline, in scene: Scene) -> (trajectory: Vector2, floor: Vector2)? {
        let (lo, hi, _) = bounds(of: trajectory)
        let planes = ScenePlanes.extract(from: scene, alignment: SceneAlignment.centred(on: scene))
        guard let room = floorExtent(planes), lo.x <= hi.x else { return nil }
        let size = Vector2(hi.x - lo.x, hi.y - lo.y)
        let fits = (size.x <= room.x && size.y <= room.y) || (size.y <= room.x && size.x <= room.y)
        guard !fits else { return nil }
        let longFirst = room.x >= room.y
        let sorted = Vector2(longFirst ? max(size.x, size.y) : min(size.x, size.y), longFirst ? min(size.x, size.y) : max(size.x, size.y))
        return (sorted, room)
    }

    /// The height ``alignment(for:scene:)`` adds to the trajectory: none for a walk that already
    /// stays between 0.1 and 2.8 m, otherwise its mean put at 1.4 m, or, in a hall tall enough for
    /// the whole height range (1 m margin below, 0.5 m above), the range kept between floor and
    /// ceiling (centred on 1.4 m, a trajectory climbing 7.7 m would go through the floor). A range
    /// that fits only without those margins is centred between floor and ceiling (the whole Gore
    /// walk climbs 10.6 m under the hall's 12 m ceiling; centred on 1.4 m it ran 3.8 m under the
    /// floor).
    private static func verticalShift(lo: Vector3, hi: Vector3, mean: Vector3, planes: [PlaneTruth]) -> Double {
        var dz = (lo.z >= 0.1 && hi.z <= 2.8) ? 0 : 1.4 - mean.z
        if dz != 0, let ceiling = largestCeilingHeight(planes) {
            let lowest = 1.0 - lo.z, highest = ceiling - 0.5 - hi.z
            let range = hi.z - lo.z
            if lowest <= highest {
                dz = min(max(dz, lowest), highest)
            } else if range < ceiling - 0.2 {
                dz = (ceiling - range) / 2 - lo.z
            }
        }
        return dz
    }

    /// When the placed trajectory goes below the scene's floor or above its ceiling (a walk that
    /// climbs more storeys than the scene has): the heights it spans once placed and the
    /// ceiling's height (m); nil when it stays inside or the scene has no ceiling. Such a camera sees
    /// the underside of the floor or nothing at all for a while (the whole Gore walk, which climbs
    /// 10.6 m, in `Scenes/hall.json`).
    public static func verticalOverflow(of trajectory: CumulativeBSpline, in scene: Scene)
        -> (low: Double, high: Double, ceiling: Double)? {
        let (lo, hi, mean) = bounds(of: trajectory)
        let planes = ScenePlanes.extract(from: scene, alignment: SceneAlignment.centred(on: scene))
        guard let ceiling = largestCeilingHeight(planes), lo.z <= hi.z else { return nil }
        let dz = verticalShift(lo: lo, hi: hi, mean: mean, planes: planes)
        let low = lo.z + dz, high = hi.z + dz
        return low < 0.05 || high > ceiling - 0.05 ? (low, high, ceiling) : nil
    }

    /// Height (m, floor-aligned world) of the largest ceiling among `planes`.
    private static func largestCeilingHeight(_ planes: [PlaneTruth]) -> Double? {
        planes.filter { $0.kind == .ceiling }.max(by: { $0.area < $1.area })?.centre.z
    }

    /// The box a trajectory sampled every 0.1 s stays in, and its mean position.
    private static func bounds(of trajectory: CumulativeBSpline) -> (lo: Vector3, hi: Vector3, mean: Vector3) {
        var lo = Vector3(repeating: .infinity), hi = -lo, sum = Vector3.zero
        var count = 0.0
        for t in stride(from: trajectory.startTime, through: trajectory.endTime, by: 0.1) {
            let p = trajectory.pose(at: t).translation
            lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p); sum += p; count += 1
        }
        return (lo, hi, sum / max(count, 1))
    }

    /// Extent along world x and y (scene x and −z) of the largest floor among `planes`.
    private static func floorExtent(_ planes: [PlaneTruth]) -> Vector2? {
        guard let floor = planes.filter({ $0.kind == .floor }).max(by: { $0.area < $1.area }) else { return nil }
        let xs = floor.polygon.map(\.x), ys = floor.polygon.map(\.y)
        return Vector2((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
    }
}
