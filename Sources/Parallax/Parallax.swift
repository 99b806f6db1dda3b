// The umbrella module: `import Parallax` gives the everyday API without a list of imports —
// the AR session, its configurations, anchors and frames (ParallaxAR), sensor sources and
// datasets (ParallaxDatasets), the tracker (ParallaxTracking), the scene graph
// (ParallaxSceneGraph), the renderer (ParallaxRendering), AR frame compositing (ParallaxARView),
// and the math and image types they all use. Each module remains a product of its own; the
// lower-level ones (ParallaxVision, ParallaxSimulation, ParallaxEvaluation) are imported by name.

@_exported import ParallaxAR
@_exported import ParallaxARView
@_exported import ParallaxDatasets
@_exported import ParallaxImaging
@_exported import ParallaxMath
@_exported import ParallaxRendering
@_exported import ParallaxSceneGraph
@_exported import ParallaxTracking

/// ARKit's `ARCamera`: the camera of an AR ``ParallaxAR/Frame`` (pose, intrinsics, tracking state).
/// Both ParallaxAR and ParallaxSceneGraph name a type `Camera`; these names need no module prefix.
public typealias ARCamera = ParallaxAR.Camera
/// SceneKit's `SCNCamera`: a camera node's projection in the scene graph.
public typealias SceneCamera = ParallaxSceneGraph.Camera
/// ARKit's `ARHitTestResult`: a hit of a ray through a frame's pixel against planes or feature points.
public typealias ARHitTestResult = ParallaxAR.HitTestResult
/// SceneKit's `SCNHitTestResult`: a hit against the scene graph's geometry.
public typealias SceneHitTestResult = ParallaxSceneGraph.HitTestResult
