import Dispatch
import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintPNG
import PinmintRaster

/// `PinmintBench diff [--write DIR] [--iterations N]`: pixelmatch-exact
/// comparison of two 1024×1024 and two 4096×4096 map-like images (a street
/// grid under ~1 marker per 5000 px², opaque), the second image with a few
/// markers moved by a fraction of a pixel (anti-aliasing shifts), a few
/// recoloured and one missing. Times (median of N, ms): decoded images
/// compared (count only, and with the diff image), and decoding both PNGs
/// (on two threads, as `pinmint diff` does) plus the comparison.
/// `--write DIR` saves the pairs and `DIR/pinmint.txt` (name, count, ms
/// decoding excluded, ms included) for tools/pixelmatch_fast_compare.py.
enum DiffBench {
    struct Marker {
        var x, y, size: Double
        var color: Color
        var kind: Int
    }

    /// A deterministic map-like picture: roads, blocks, markers.
    static func picture(side: Int, markers: [Marker]) throws -> RGBA8Image {
        let canvas = try Canvas(width: side, height: side)
        canvas.clear(Color(red8: 242, green8: 239, blue8: 233))
        var path = Path()
        let spacing = 96.0
        var position = 13.0
        while position < Double(side) {
            path.removeAll()
            path.addRect(Rect(x: position, y: 0, width: 9, height: Double(side)))
            path.addRect(Rect(x: 0, y: position * 1.07, width: Double(side), height: 7))
            try canvas.fill(path, paint: .solid(.white))
            position += spacing
        }
        for marker in markers {
            path.removeAll()
            let rect = Rect(x: marker.x, y: marker.y, width: marker.size * (marker.kind == 0 ? 2.4 : 1), height: marker.size)
            if marker.kind == 0 {
                path.addRoundedRect(rect, radius: marker.size / 4)
            } else {
                path.addCircle(center: Point(marker.x + marker.size / 2, marker.y + marker.size / 2), radius: marker.size / 2)
            }
            try canvas.fill(path, paint: .solid(marker.color))
            try canvas.stroke(path, style: StrokeStyle(width: 1.5), paint: .solid(.white))
        }
        return RGBA8Image(canvas)
    }

    /// The expected and the actual picture of one size.
    static func pair(side: Int) throws -> (RGBA8Image, RGBA8Image) {
        var random = SplitMix(state: UInt64(side))
        var markers: [Marker] = []
        let palette = [Color(red8: 229, green8: 57, blue8: 53), Color(red8: 30, green8: 136, blue8: 229),
                       Color(red8: 67, green8: 160, blue8: 71), Color(red8: 77, green8: 77, blue8: 77)]
        for _ in 0..<(side * side / 5000) {
            markers.append(Marker(x: random.unit() * Double(side - 60), y: random.unit() * Double(side - 30),
                                  size: 12 + random.unit() * 14, color: palette[Int(random.unit() * 4) % 4],
                                  kind: Int(random.unit() * 2) % 2))
        }
        var changed = markers
        for index in stride(from: 0, to: changed.count, by: 23) { changed[index].x += 0.35; changed[index].y += 0.2 }
        for index in stride(from: 7, to: changed.count, by: 97) { changed[index].color = palette[(index + 1) % 4] }
        changed.remove(at: changed.count / 2)
        return (try picture(side: side, markers: markers), try picture(side: side, markers: changed))
    }

    struct SplitMix {
        var state: UInt64
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    static func median(_ iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        try body()   // warm-up
        var samples: [Double] = []
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func main(_ arguments: [String]) throws {
        var folder = "Benchmarks/.work/diff", iterations = 15
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--write" where index + 1 < arguments.count: folder = arguments[index + 1]; index += 2
            case "--iterations" where index + 1 < arguments.count: iterations = max(1, Int(arguments[index + 1]) ?? 15); index += 2
            default: throw UsageProblem(text: "PinmintBench diff [--write DIR] [--iterations N]")
            }
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        print("pixelmatch-exact diff, median of \(iterations) runs, \(ProcessInfo.processInfo.activeProcessorCount) cores")
        print("pair            diff px    compare ms   +diff image ms   decode+compare ms")
        var table = ""
        for side in [1024, 4096] {
            let name = "diff-\(side)x\(side)"
            let (expected, actual) = try pair(side: side)
            let expectedPath = "\(folder)/\(name).expected.png", actualPath = "\(folder)/\(name).actual.png"
            try PNGEncoder.writeAtomically(try expected.pngData(mode: .default), to: expectedPath)
            try PNGEncoder.writeAtomically(try actual.pngData(mode: .default), to: actualPath)
            var count = 0
            let compare = try median(iterations) {
                count = try PixelDiff.compare(expected: expected, actual: actual).diffPixels
            }
            let withImage = try median(iterations) {
                _ = try PixelDiff.compare(expected: expected, actual: actual, makesDiffImage: true)
            }
            let decoding = try median(iterations) {
                final class Slots: @unchecked Sendable {
                    private(set) var images: [RGBA8Image?] = [nil, nil]
                    private let lock = NSLock()
                    func store(_ image: RGBA8Image?, at index: Int) { lock.withLock { images[index] = image } }
                }
                let slots = Slots()
                DispatchQueue.concurrentPerform(iterations: 2) { which in
                    slots.store(try? RGBA8Image(contentsOfFile: which == 0 ? expectedPath : actualPath), at: which)
                }
                guard let first = slots.images[0], let second = slots.images[1] else { throw UsageProblem(text: "decode failed") }
                let decodedCount = try PixelDiff.compare(expected: first, actual: second).diffPixels
                if decodedCount != count { throw UsageProblem(text: "count changed after decoding: \(decodedCount) vs \(count)") }
            }
            let decodeOne = try median(iterations) { _ = try RGBA8Image(contentsOfFile: expectedPath) }
            print(name.padding(toLength: 14, withPad: " ", startingAt: 0),
                  String(format: "%9d %13.2f %16.2f %19.2f   (one PNG decoded alone: %.2f ms)",
                         count, compare, withImage, decoding, decodeOne))
            table += "\(name) \(count) \(compare) \(decoding)\n"
        }
        try table.write(toFile: "\(folder)/pinmint.txt", atomically: true, encoding: .utf8)
    }

    struct UsageProblem: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
