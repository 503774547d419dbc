import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import Testing

struct PNGRoundTripTests {
    func sampleCanvas() throws -> Canvas {
        let canvas = try Canvas(width: 31, height: 17)
        var path = Path()
        path.addCircle(center: Point(15.5, 8.5), radius: 7.3)
        try canvas.fill(path, paint: .solid(Color(red8: 77, green8: 77, blue8: 77, alpha: 0.8)))
        return canvas
    }

    @Test func encodeThenDecodeGivesTheSamePixels() throws {
        let canvas = try sampleCanvas()
        let bytes = try PNGEncoder.encode(canvas, pixelRatio: 2)
        let decoded = try PNGDecoder.decode(bytes)
        #expect(decoded.width == 31 && decoded.height == 17)
        #expect(decoded.straightRGBA8 == canvas.straightRGBA8())
    }

    @Test func identicalInputGivesIdenticalBytes() throws {
        let first = try PNGEncoder.encode(try sampleCanvas())
        let second = try PNGEncoder.encode(try sampleCanvas())
        #expect(first == second)
    }

    @Test(arguments: [(1.0, 2835), (2.0, 5669), (3.0, 8504)])
    func physChunkCarriesThePixelRatio(_ ratio: Double, _ pixelsPerMeter: Int) throws {
        let bytes = try PNGEncoder.encode(try sampleCanvas(), pixelRatio: ratio)
        let tag: [UInt8] = Array("pHYs".utf8)
        let index = try #require((0..<(bytes.count - 8)).first { Array(bytes[$0..<($0 + 4)]) == tag })
        let value = bytes[(index + 4)..<(index + 8)].reduce(0) { $0 << 8 | Int($1) }
        #expect(value == pixelsPerMeter)
    }

    @Test func writingIsAtomicAndLeavesNoTemporaryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-png-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("out.png").path
        try PNGEncoder.writeAtomically(try PNGEncoder.encode(try sampleCanvas()), to: target)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
        #expect(throws: PNGError.self) {
            try PNGEncoder.writeAtomically([1, 2, 3], to: folder.appendingPathComponent("missing/out.png").path)
        }
    }

    @Test(arguments: [[UInt8](), Array("not a png at all".utf8), [137, 80, 78, 71, 13, 10, 26, 10, 0, 0]])
    func brokenInputIsRefused(_ bytes: [UInt8]) {
        #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes, name: "broken.png") }
    }

    @Test func oversizedHeaderIsRefusedBeforeAllocation() throws {
        let bytes = try PNGEncoder.encode(try sampleCanvas())
        #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes, maximumSide: 16) }
        #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes, maximumPixelCount: 100) }
    }
}
