import Foundation
import PinmintDiff
import PinmintPNG

/// The repository's top folder, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let resources = repositoryRoot.appendingPathComponent("Tests/PinmintDiffTests/Resources")

/// One committed image pair: Resources/pairs/NAME.expected.png and NAME.actual.png.
func imagePair(_ name: String) throws -> (expected: RGBA8Image, actual: RGBA8Image) {
    let folder = resources.appendingPathComponent("pairs")
    return (try RGBA8Image(contentsOfFile: folder.appendingPathComponent("\(name).expected.png").path),
            try RGBA8Image(contentsOfFile: folder.appendingPathComponent("\(name).actual.png").path))
}

/// FNV-1a, 64 bits, as tools/pixelmatch_counts.py hashes diff images.
func fnv1a64(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let text = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
}

/// A fresh folder under the system's temporary folder.
func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-diff-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Deterministic pseudo-random numbers (SplitMix64) for test images.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A marker-like test image: flat background, flat blocks with soft edges,
/// and `changes` pixels altered, some slightly, some strongly, some translucent.
func syntheticPair(width: Int, height: Int, seed: UInt64, changes: Int) -> (RGBA8Image, RGBA8Image) {
    var random = SeededGenerator(state: seed)
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for index in 0..<(width * height) { pixels[index * 4] = 236; pixels[index * 4 + 1] = 232; pixels[index * 4 + 2] = 224; pixels[index * 4 + 3] = 255 }
    for _ in 0..<(width * height / 400) {
        let blockWidth = Int.random(in: 3...30, using: &random), blockHeight = Int.random(in: 3...20, using: &random)
        let left = Int.random(in: 0..<width, using: &random), top = Int.random(in: 0..<height, using: &random)
        let color = (0..<4).map { $0 == 3 ? UInt8.random(in: 120...255, using: &random) : UInt8.random(in: 0...255, using: &random) }
        for y in top..<min(height, top + blockHeight) {
            for x in left..<min(width, left + blockWidth) {
                let edge = x == left || y == top || x == left + blockWidth - 1 || y == top + blockHeight - 1
                for channel in 0..<4 {
                    let value = edge ? (Int(color[channel]) + Int(pixels[(y * width + x) * 4 + channel])) / 2 : Int(color[channel])
                    pixels[(y * width + x) * 4 + channel] = UInt8(value)
                }
            }
        }
    }
    var changed = pixels
    for _ in 0..<changes {
        let index = Int.random(in: 0..<(width * height), using: &random) * 4
        let amount = [3, 20, 90, 200][Int.random(in: 0..<4, using: &random)]
        for channel in 0..<4 {
            let value = Int(changed[index + channel]) + Int.random(in: -amount...amount, using: &random)
            changed[index + channel] = UInt8(max(0, min(255, value)))
        }
    }
    return (RGBA8Image(width: width, height: height, pixels: pixels), RGBA8Image(width: width, height: height, pixels: changed))
}
