import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxMapping

/// `parallax vocabulary evaluate DATASET`: candidate-keyframe recall and search time with the
/// vocabulary against brute-force descriptor votes, on a dataset with ground truth.
struct VocabularyEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure place recognition (top-1/top-3 recall, ms per query): vocabulary against brute force.",
        discussion: """
            Every cam0 image is described as a relocalization query is and posed from the ground \
            truth; every S-th becomes a keyframe (for each --keyframe-stride), the images halfway \
            between are queries. A candidate is right within 0.3 m and 20° of the query's camera. \
            --minimum-age 10 searches only keyframes 10 s older than the query, as loop detection does.
            """)

    @Argument(help: "Dataset folder with ground truth (EuRoC/ASL layout).")
    var dataset: String

    @Option(help: ArgumentHelp("Vocabulary file (default: the shipped one).", valueName: "file.voc"))
    var vocabulary: String?

    @Option(help: "Keyframe every S-th image; repeat for several map sizes (2…10000).")
    var keyframeStride: [Int] = [6, 2]

    @Option(help: "Search only keyframes at least this much older than the query (s, 0…1000000).")
    var minimumAge = 0.0

    func validate() throws {
        for s in keyframeStride { try NumberChecks.integer(s, "--keyframe-stride", in: 2...10_000) }
        try NumberChecks.nonNegative(minimumAge, "--minimum-age", atMost: NumberChecks.maxSeconds, unit: "s")
    }

    func run() throws {
        let words: Vocabulary
        if let vocabulary {
            words = try VocabularyFile.read(contentsOf: URL(fileURLWithPath: vocabulary))
        } else {
            guard let standard = Vocabulary.standard else {
                throw CLIError("the shipped vocabulary (\(Vocabulary.standardFileName)) was not found; pass --vocabulary FILE")
            }
            words = standard
        }
        let benchmark = try PlaceRecognitionBenchmark(dataset: EuRoCDataset(url: URL(fileURLWithPath: dataset)))
        print("\(dataset): \(benchmark.views.count) posed images; vocabulary \(words.wordCount) words")
        for stride in keyframeStride {
            print("keyframe every \(stride) images, minimum age \(NumberChecks.text(minimumAge)) s")
            print("  vocabulary:  \(benchmark.run(keyframeStride: stride, vocabulary: words, minimumAge: minimumAge))")
            print("  brute force: \(benchmark.run(keyframeStride: stride, vocabulary: nil, minimumAge: minimumAge))")
        }
    }
}
