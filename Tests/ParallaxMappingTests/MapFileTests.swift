import Foundation
import ParallaxMapping
import ParallaxMath
import Testing

@Suite("World map file format")
struct MapFileTests {
    static func sample() -> MapArchive {
        var rng = SplitMix64(seed: 9)
        var db = KeyframeDatabase()
        for k in 0..<3 {
            let points = (0..<25).map { i in
                KeyframePoint(featureID: k * 100 + i, position_world: rng.gaussianVector(),
                              pixel: Vector2(rng.uniform(0, 752), rng.uniform(0, 480)),
                              descriptor: BinaryDescriptor(rng.next(), rng.next(), rng.next(), rng.next()))
            }
            db.add(Keyframe(id: k, timestamp: Double(k) * 0.5,
                            T_world_camera: RigidTransform(rotation: Quaternion(axis: Vector3(0, 0, 1), angle: Double(k)),
                                                           translation: Vector3(Double(k), 0, 1)),
                            points: points))
        }
        let anchors = [ArchivedAnchor(identifier: UUID(), name: "cup", transform: Matrix4(rotation: .identity, translation: Vector3(1, 2, 3))),
                       ArchivedAnchor(identifier: UUID(), name: nil, transform: .identity)]
        return MapArchive(keyframes: db, T_A_W: RigidTransform(rotation: Quaternion(axis: Vector3(1, 0, 0), angle: -.pi / 2),
                                                               translation: Vector3(0.1, 0.2, 0.3)), anchors: anchors)
    }

    @Test("round trip keeps everything bit for bit")
    func roundTrip() throws {
        let archive = Self.sample()
        let bytes = MapFile.encode(archive)
        #expect(try MapFile.decode(bytes) == archive)
    }

    @Test("damaged files get a clear error")
    func damaged() {
        let bytes = MapFile.encode(Self.sample())
        func message(_ b: [UInt8]) -> String {
            do {
                _ = try MapFile.decode(b)
                return "decoded"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(Array(bytes.prefix(bytes.count - 10))).contains("truncated"))
        #expect(message(Array(bytes.prefix(5))).contains("magic"))
        var flipped = bytes
        flipped[200] ^= 0x40
        #expect(message(flipped).contains("checksum mismatch"))
        var foreign = bytes
        foreign[0] = UInt8(ascii: "G")
        #expect(message(foreign).contains("not a Parallax world map"))
        var future = bytes
        future[8] = 2
        #expect(message(future).contains("version 2 is not supported"))
        var hugeSection = bytes
        for i in 20..<28 { hugeSection[i] = 0xFF }  // META's declared length
        #expect(message(hugeSection).contains("truncated"))
    }
}
