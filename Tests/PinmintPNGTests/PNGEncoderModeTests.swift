import PinmintPNG
import Testing

/// Every mode is lossless and deterministic; colour reduction picks the
/// smallest exact colour type.
struct PNGEncoderModeTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let width: Int
        let height: Int
        let pixels: [UInt8]
        /// (colour type, bit depth) `default` must write.
        let colorType: Int
        let bitDepth: Int
    }

    /// `count` pixels, each `pixel(index)` as RGBA.
    static func pixels(_ count: Int, _ pixel: (Int) -> (Int, Int, Int, Int)) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in 0..<count {
            let (red, green, blue, alpha) = pixel(index)
            bytes += [UInt8(red), UInt8(green), UInt8(blue), UInt8(alpha)]
        }
        return bytes
    }

    /// Pixels that repeat the one before, the one above, or are new (a fixed linear congruential generator).
    static func structuredNoise(width: Int, height: Int) -> [UInt8] {
        var state: UInt64 = 0x1234_5678
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            let choice = next() % 8
            for channel in 0..<4 {
                let target = index * 4 + channel
                if choice < 3, index > 0 { bytes[target] = bytes[target - 4] }
                else if choice < 6, index >= width { bytes[target] = bytes[target - width * 4] }
                else { bytes[target] = UInt8(truncatingIfNeeded: next() % (channel == 3 ? 256 : 64)) }
            }
        }
        return bytes
    }

    static let cases: [Case] = [
        Case(description: "two colours", width: 33, height: 9,
             pixels: pixels(33 * 9) { $0 % 5 == 0 ? (255, 0, 0, 255) : (0, 0, 0, 0) }, colorType: 3, bitDepth: 1),
        Case(description: "flat colour with 40 alpha steps", width: 40, height: 40,
             pixels: pixels(1600) { (77, 77, 200, $0 % 40 * 6) }, colorType: 3, bitDepth: 8),
        Case(description: "opaque grey ramp", width: 256, height: 4,
             pixels: pixels(1024) { ($0 % 256, $0 % 256, $0 % 256, 255) }, colorType: 0, bitDepth: 8),
        Case(description: "grey with 512 alpha/grey pairs", width: 64, height: 8,
             pixels: pixels(512) { ($0 % 256, $0 % 256, $0 % 256, $0 / 256 * 100 + 50) }, colorType: 4, bitDepth: 8),
        Case(description: "opaque 4096 colours", width: 64, height: 64,
             pixels: pixels(4096) { ($0 % 64 * 4, $0 / 64 * 4, 90, 255) }, colorType: 2, bitDepth: 8),
        Case(description: "translucent 4096 colours", width: 64, height: 64,
             pixels: pixels(4096) { ($0 % 64 * 4, $0 / 64 * 4, 90, 200) }, colorType: 6, bitDepth: 8),
        // Over 64 KiB of rows: `default` deflates them in two halves (the shim's filter estimate picks Up or none).
        Case(description: "translucent 256x160 colour columns", width: 256, height: 160,
             pixels: pixels(256 * 160) { ($0 % 256, ($0 % 256) ^ 0x5a, $0 / 256 / 40 * 50, 200) }, colorType: 6, bitDepth: 8),
        Case(description: "opaque 256x160 colour noise", width: 256, height: 160,
             pixels: pixels(256 * 160) { ($0 &* 2_654_435_761 >> 7 & 255, $0 % 251, $0 / 256, 255) }, colorType: 2, bitDepth: 8),
        Case(description: "one pixel", width: 1, height: 1, pixels: [1, 2, 3, 4], colorType: 3, bitDepth: 1),
        // Rows of 33,200 bytes: the row above is out of deflate's 32 KiB window.
        Case(description: "translucent 8300x3 gradient rows", width: 8300, height: 3,
             pixels: pixels(8300 * 3) { ($0 % 8300 / 33, $0 / 8300 * 70, $0 % 7 * 30, 100 + $0 % 8300 % 100) },
             colorType: 6, bitDepth: 8),
        // Runs, copies of the pixel above and noise, from a fixed generator: many deflate blocks and every kind of match.
        Case(description: "structured noise 300x200", width: 300, height: 200, pixels: structuredNoise(width: 300, height: 200),
             colorType: 6, bitDepth: 8),
        // The colour scan stops early only once it has seen > 256 colours, a
        // translucent pixel and a non-grey one; these put the last clue last.
        Case(description: "512 grey/alpha pairs, then one colour", width: 64, height: 8,
             pixels: pixels(512) { $0 == 511 ? (9, 8, 7, 100) : ($0 % 256, $0 % 256, $0 % 256, $0 / 256 * 100 + 50) },
             colorType: 6, bitDepth: 8),
        Case(description: "opaque 4096 colours, then one translucent", width: 64, height: 64,
             pixels: pixels(4096) { $0 == 4095 ? (1, 2, 3, 254) : ($0 % 64 * 4, $0 / 64 * 4, 90, 255) },
             colorType: 6, bitDepth: 8),
    ]

    @Test(arguments: cases, PNGEncoder.Mode.allCases)
    func everyModeIsLosslessAndDeterministic(_ image: Case, _ mode: PNGEncoder.Mode) throws {
        let bytes = try PNGEncoder.encode(straightRGBA8: image.pixels, width: image.width, height: image.height, mode: mode)
        let again = try PNGEncoder.encode(straightRGBA8: image.pixels, width: image.width, height: image.height, mode: mode)
        #expect(bytes == again)
        let decoded = try PNGDecoder.decode(bytes)
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(decoded.straightRGBA8 == image.pixels)
    }

    @Test(arguments: cases)
    func defaultModeWritesTheSmallestExactColourType(_ image: Case) throws {
        let bytes = try PNGEncoder.encode(straightRGBA8: image.pixels, width: image.width, height: image.height)
        let info = try PNGInfo(bytes)
        #expect(info.colorType == image.colorType && info.bitDepth == image.bitDepth, "\(info.colorTypeName) \(info.bitDepth)")
        #expect(!info.chunks.contains { ["tIME", "tEXt", "zTXt", "iTXt"].contains($0.type) })
    }

    @Test(arguments: cases)
    func smallIsNeverLargerThanDefaultOrLibpngDefaults(_ image: Case) throws {
        func size(_ settings: [PNGEncoder.Settings]) throws -> Int {
            try PNGEncoder.encode(straightRGBA8: image.pixels, width: image.width, height: image.height, trying: settings).count
        }
        let small = try size(PNGEncoder.trials(for: .small, pixelCount: image.width * image.height))
        #expect(small <= (try size(PNGEncoder.trials(for: .default, pixelCount: 1))))
        #expect(small <= (try size([.libpngDefaults])))
    }

    @Test(arguments: [(0, 1, 0), (2, 2, 15), (3, 3, 35)])
    func mismatchedBuffersAreRefused(_ width: Int, _ height: Int, _ count: Int) {
        #expect(throws: PNGError.self) {
            try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 0, count: count), width: width, height: height)
        }
    }
}

extension PNGEncoderModeTests {
    @Test(arguments: [0.0, -1, .nan, .infinity])
    func aMeaninglessPixelRatioWritesNoPHYs(_ ratio: Double) throws {
        let bytes = try PNGEncoder.encode(straightRGBA8: [1, 2, 3, 255], width: 1, height: 1, pixelRatio: ratio)
        #expect(try !PNGInfo(bytes).chunks.contains { $0.type == "pHYs" })
    }

    /// A size whose pixel count overflows an Int (the library's callers pass
    /// any width and height) is refused with the encoder's error, not a trap.
    @Test(arguments: [(Int(UInt32.max >> 1), Int(UInt32.max >> 1)), (1 << 31, 1 << 31), (Int.max, 2)])
    func aSizeThatOverflowsIsRefused(_ width: Int, _ height: Int) {
        for mode in PNGEncoder.Mode.allCases {
            #expect(throws: PNGError.self) {
                _ = try PNGEncoder.encode(straightRGBA8: [0, 0, 0, 0], width: width, height: height, mode: mode)
            }
        }
    }
}
