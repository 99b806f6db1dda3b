import Foundation
import ParallaxDatasets
import ParallaxEvaluation
import ParallaxImaging
import ParallaxTracking
import Testing

/// Replays a simulated mono set through the tracker with each cam0 frame passed through
/// `alter` first (a fault added to the feed: held images, jittered stamps), scored against the
/// set's truth.
enum AlteredFeedReplay {
    /// What a frame is handed to the tracker as.
    struct Feed {
        var timestamp: Double
        var timestampNs: Int64
        var image: GrayImage?
    }

    /// ATE (posyaw, m; each pose labelled with the frame's true stamp) and the frames reported
    /// `limited(relocalizing)`. `alter` gets the frame as recorded and its time since the start.
    static func run(trajectory: String, alter: (Feed, Double) -> Feed) throws -> (ate: Double, relocalizing: Int) {
        let (loaded, name) = try TrackingFixtures.simulated(trajectory: trajectory, stereo: false)
        let dataset = try #require(loaded, "\(name)")
        let vio = try VisualInertialOdometry(configuration: TrackerConfiguration(mode: .mono),
                                             camera0: dataset.cameras[0], camera1: nil, imu: dataset.imu)
        let start = try #require(try dataset.startTimestampNs())
        var poses: [TrajectoryPose] = [], truth: [TrajectoryPose] = []
        var relocalizing = 0
        let iterator = try dataset.replay(includeGroundTruth: true).makeIterator()
        while let event = try iterator.next() {
            switch event {
            case .imu(let s): vio.process(imu: s)
            case .groundTruth(let g):
                truth.append(TrajectoryPose(time: Double(g.timestampNs) * 1e-9, timeNs: g.timestampNs, T_world_body: g.T_world_body))
            case .frame(let f):
                let recorded = Feed(timestamp: f.timestamp, timestampNs: f.timestampNs, image: try f.loadGray8(0))
                let feed = alter(recorded, Double(f.timestampNs - start) * 1e-9)
                let r = try vio.process(timestamp: feed.timestamp, timestampNs: feed.timestampNs, image0: feed.image, image1: nil)
                if case .limited(.relocalizing) = r.trackingState { relocalizing += 1 }
                if let pose = r.T_world_body {
                    poses.append(TrajectoryPose(time: f.timestamp, timeNs: f.timestampNs, T_world_body: pose))
                }
            }
        }
        var options = EvaluationOptions()
        options.alignment = .posyaw
        let evaluation = try TrajectoryEvaluation(estimate: Trajectory(poses: poses), reference: Trajectory(poses: truth),
                                                  options: options)
        return (evaluation.report.ate.rmse, relocalizing)
    }
}
