import ArgumentParser
import Foundation
import ParallaxDatasets
import ParallaxMapping

/// `parallax vocabulary`: train and describe the bag-of-binary-words vocabularies used for place
/// recognition (docs/world-maps.md, "Vocabulary").
struct VocabularyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vocabulary",
        abstract: "Train or describe a place-recognition vocabulary (bag of binary words).",
        subcommands: [VocabularyTrainCommand.self, VocabularyInfoCommand.self, VocabularyEvaluateCommand.self])
}

/// `parallax vocabulary train DATASET... -o FILE`: k-majority vocabulary tree over the
/// relocalizer's oriented-BRIEF descriptors of every S-th cam0 image.
struct VocabularyTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a vocabulary on the cam0 images of EuRoC/ASL-layout datasets.",
        discussion: """
            Corners and descriptors are those the relocalizer computes for a query image. The tree \
            is built by hierarchical k-majority clustering with a fixed seed (the same input gives \
            the same file); words get idf weights ln(N/n) over the images used.
            """)

    @Argument(help: "Dataset folders (EuRoC/ASL or TUM-VI layout: the folder holding mav0, or mav0 itself).")
    var datasets: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Vocabulary file to write.", valueName: "file.voc"))
    var output: String

    @Option(help: "Children per node, k (2…64).")
    var branching = 8

    @Option(help: "Levels below the root, L (1…8): at most k^L words.")
    var depth = 4

    @Option(help: "Descriptors clustered at most (thinned evenly beyond; 1…2000000).")
    var maxDescriptors = 200_000

    @Option(help: "Use every S-th cam0 image (1…100000).")
    var stride = 2

    func validate() throws {
        try NumberChecks.integer(branching, "--branching", in: Vocabulary.branchingRange)
        try NumberChecks.integer(depth, "--depth", in: Vocabulary.depthRange)
        try NumberChecks.integer(maxDescriptors, "--max-descriptors", in: 1...2_000_000)
        try NumberChecks.integer(stride, "--stride", in: 1...100_000)
        guard !datasets.isEmpty else { throw ValidationError("give at least one dataset folder") }
    }

    func run() throws {
        var images: [[BinaryDescriptor]] = []
        for path in datasets {
            let dataset = try EuRoCDataset(url: URL(fileURLWithPath: path))
            let found = try Vocabulary.trainingImages(from: dataset, stride: stride)
            print("\(path): \(found.count) images, \(found.reduce(0) { $0 + $1.count }) descriptors")
            images += found
        }
        var configuration = VocabularyTrainingConfiguration()
        configuration.branching = branching
        configuration.depth = depth
        configuration.maximumDescriptors = maxDescriptors
        let start = Date()
        let vocabulary: Vocabulary
        do { vocabulary = try Vocabulary.train(images: images, configuration: configuration) } catch let e as VocabularyError {
            throw CLIError("cannot train on \(datasets.joined(separator: ", ")): \(e.description)")
        }
        try VocabularyFile.write(vocabulary, to: URL(fileURLWithPath: output))
        print(String(format: "trained in %.1f s; ", Date().timeIntervalSince(start)) + VocabularyInfo.describe(vocabulary, path: output))
    }
}

/// `parallax vocabulary info FILE` (also `parallax info FILE.voc`).
struct VocabularyInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Summarise a vocabulary file.")

    @Argument(help: "Vocabulary file (.voc).")
    var file: String

    func run() throws {
        print(VocabularyInfo.describe(try VocabularyFile.read(contentsOf: URL(fileURLWithPath: file)), path: file))
    }
}

/// The text of `parallax vocabulary info`.
enum VocabularyInfo {
    static func describe(_ v: Vocabulary, path: String) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        let zero = v.weights.filter { $0 == 0 }.count
        let (lo, hi) = (v.weights.min() ?? 0, v.weights.max() ?? 0)
        return """
            vocabulary \(path) (format version \(VocabularyFile.version)\(size.map { ", \($0) bytes" } ?? ""))
            branching \(v.branching), depth \(v.depth): \(v.wordCount) words of at most \(Self.power(v.branching, v.depth)), \(v.nodeCount) nodes
            trained on \(v.trainingImageCount) images, \(v.trainingDescriptorCount) descriptors clustered
            idf weights \(String(format: "%.2f–%.2f", lo, hi)); \(zero) words in every training image (weight 0)
            """
    }

    private static func power(_ k: Int, _ l: Int) -> Int { (0..<l).reduce(1) { r, _ in r.multipliedReportingOverflow(by: k).partialValue } }
}
