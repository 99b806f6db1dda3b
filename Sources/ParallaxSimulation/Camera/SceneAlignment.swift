import Foundation
import ParallaxMath
import ParallaxSceneGraph

/// The fixed transform between the estimator's z-up world `W` and the scene graph's y-up world `S`.
///
/// The scene graph follows SceneKit (y up, floor in the x–z plane); the estimator and the ground
/// truth follow `conventions.md` (z up, gravity −z). The rotation is fixed:
///
///     x_S = x_W,   y_S = z_W,   z_S = −y_W      (R_S_W = [[1,0,0],[0,0,1],[0,−1,0]])
///
/// and a translation `t_S_W` places the trajectory inside the room: the world origin `W` lies on
/// the scene's floor (`y_S = floorHeight`) at the scene point `(originX, floorHeight, originZ)`.
public struct SceneAlignment: Sendable, Equatable {
    /// `T_scene_world`: maps z-up world points into the y-up scene.
    public var T_scene_world: RigidTransform

    /// The fixed rotation `R_S_W` (z-up world → y-up scene).
    public static let R_scene_world = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 0, 1), Vector3(0, -1, 0))

    /// World origin on the floor at scene coordinates `(originX, floorHeight, originZ)`; the world
    /// may also be turned by `yaw` radians about its vertical axis before the fixed rotation
    /// (`R = R_S_W · Rz(yaw)`), to fit a long trajectory along the room's long side.
    public init(originX: Double = 0, floorHeight: Double = 0, originZ: Double = 0, yaw: Double = 0) {
        let rotation = Quaternion(rotationMatrix: Self.R_scene_world) * Quaternion(axis: Vector3(0, 0, 1), angle: yaw)
        T_scene_world = RigidTransform(rotation: rotation, translation: Vector3(originX, floorHeight, originZ))
    }

    /// Creates an alignment from `T_scene_world` directly.
    public init(T_scene_world: RigidTransform) { self.T_scene_world = T_scene_world }

    /// `T_world_scene`.
    public var T_world_scene: RigidTransform { T_scene_world.inverse }

    /// The renderer's camera node pose (GL camera: looks down −z, y up) in the scene, for an
    /// OpenCV camera with pose `T_world_camera` in the z-up world: `T_S_W · T_W_Ccv · diag(1,−1,−1)`.
    public func glCameraPose(T_world_camera: RigidTransform) -> RigidTransform {
        let R_cv_gl = RigidTransform(rotationMatrix: Matrix3(diagonal: Vector3(1, -1, -1)), translation: .zero)
        return T_scene_world * T_world_camera * R_cv_gl
    }

    /// Centres the world on the scene's floor: the floor height is the top of the lowest
    /// horizontal surface found by ``ScenePlanes`` (0 when none), the origin its centre.
    public static func centred(on scene: Scene) -> SceneAlignment {
        let floors = ScenePlanes.extract(from: scene, alignment: SceneAlignment()).filter { $0.kind == .floor }
        guard let floor = floors.max(by: { $0.area < $1.area }) else { return SceneAlignment() }
        // Planes were extracted with the default alignment: world = (x_S, −z_S, y_S).
        return SceneAlignment(originX: floor.centre.x, floorHeight: floor.centre.z, originZ: -floor.centre.y)
    }
}
