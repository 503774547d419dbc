import Foundation
import PinmintPNG
import Testing

/// Hostile input: limits checked before allocation, truncation, bad CRCs,
/// chunk-level colour policy, and the fuzzer's saved inputs.
struct PNGDecoderLimitsTests {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xedb8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0])
    }

    /// A small valid RGBA PNG from our encoder (flat colour, 20×10).
    static func sample() throws -> [UInt8] {
        let pixels = (0..<200).flatMap { index -> [UInt8] in index % 7 == 0 ? [200, 30, 30, 128] : [10, 20, 30, 255] }
        return try PNGEncoder.encode(straightRGBA8: pixels, width: 20, height: 10, trying: [.libpngDefaults])
    }

    /// Inserts `extra` right after IHDR.
    static func inserting(_ extra: [UInt8], into png: [UInt8]) -> [UInt8] {
        Array(png[0..<33]) + extra + Array(png[33...])
    }

    @Test(arguments: [(UInt32(100_000), UInt32(100_000)), (20_000, 1), (1, 20_000), (8192, 8192)])
    func oversizedHeaderIsRefusedBeforeAllocation(_ width: UInt32, _ height: UInt32) {
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(Self.header(width: width, height: height), name: "big.png") }
        #expect(error?.problem.contains("\(width)x\(height) pixels exceeds the limit") == true, "\(error?.problem ?? "")")
    }

    @Test func limitsAreConfigurable() throws {
        let png = try Self.sample()
        #expect(throws: PNGError.self) { try PNGDecoder.decode(png, limits: .init(maximumSide: 19)) }
        #expect(throws: PNGError.self) { try PNGDecoder.decode(png, limits: .init(maximumPixelCount: 199)) }
        #expect(try PNGDecoder.decode(png, limits: .init(maximumSide: 20, maximumPixelCount: 200)).width == 20)
    }

    @Test func truncatedFilesAreRefusedAtEveryLength() throws {
        let png = try Self.sample()
        for length in 0..<png.count {
            let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(Array(png[0..<length]), name: "cut.png") }
            #expect(error?.problem.isEmpty == false)
            if length >= 45 { #expect(error?.problem.contains("truncated") == true, "at \(length): \(error?.problem ?? "")") }
        }
    }

    @Test func aFlippedBitInTheImageDataCRCIsACRCError() throws {
        var png = try Self.sample()
        let idat = try #require((8..<(png.count - 4)).first { png[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
        let length = png[(idat - 4)..<idat].reduce(0) { $0 << 8 | Int($1) }
        png[idat + 4 + length] ^= 0x10
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(png, name: "flip.png") }
        #expect(error?.problem == "corrupt PNG: IDAT: CRC error")
    }

    /// libpng inflates while it reads, so damaged compressed data is usually
    /// reported as what it breaks (zlib or filter errors) before the CRC.
    @Test(arguments: 0..<12)
    func aFlippedBitInsideTheImageDataIsRefused(_ offset: Int) throws {
        var png = try Self.sample()
        let idat = try #require((8..<(png.count - 4)).first { png[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
        png[idat + 4 + offset] ^= 0x10
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(png, name: "flip.png") }
        #expect(error?.problem.hasPrefix("corrupt PNG: ") == true, "\(error?.problem ?? "")")
    }

    /// gAMA 1.0 alone brightens; next to sRGB or iCCP it is ignored (browsers do the same).
    @Test(arguments: [
        ("gAMA alone", [chunk("gAMA", bigEndian(100_000))], true),
        ("gAMA and sRGB", [chunk("gAMA", bigEndian(100_000)), chunk("sRGB", [0])], false),
        ("nothing", [], false),
    ])
    func gammaPolicy(_ label: String, _ chunks: [[UInt8]], _ applied: Bool) throws {
        let png = Self.inserting(chunks.flatMap { $0 }, into: try Self.sample())
        let decoded = try PNGDecoder.decode(png, name: label)
        #expect(decoded.gammaApplied == applied, "\(label)")
        #expect((decoded.straightRGBA8[4] != 10) == applied, "\(label): \(decoded.straightRGBA8[4..<8])")
    }

    /// Inputs the fuzzer (make fuzz) found or kept; each must decode or be refused, never crash.
    @Test(arguments: ["regressions", "corpus"])
    func fuzzerInputsAreHandled(_ subfolder: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/\(subfolder)/png").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") && $0 != "README.md" }
        #expect(!files.isEmpty)
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: folder.appendingPathComponent(file).path))
            do {
                _ = try PNGDecoder.decode([UInt8](bytes), name: file)
            } catch {
                #expect(!error.problem.isEmpty && error.file == file)
            }
        }
    }
}

extension PNGDecoderLimitsTests {
    /// A real decompression bomb: 4096×4096 transparent pixels in a few KB.
    /// Within a 1-megapixel limit it is refused from its header alone.
    @Test func decompressionBombIsRefusedByThePixelLimit() throws {
        let side = 4096
        let bomb = try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 0, count: side * side * 4),
                                         width: side, height: side, mode: .fast)
        #expect(bomb.count < 100_000)
        let error = #expect(throws: PNGError.self) {
            try PNGDecoder.decode(bomb, name: "bomb.png", limits: .init(maximumPixelCount: 1 << 20))
        }
        #expect(error?.problem.contains("4096x4096 pixels exceeds the limit") == true)
    }
}

extension PNGDecoderLimitsTests {
    /// An iCCP chunk whose profile inflates to 16 MiB (the zlib stream of a
    /// 2048×2048 transparent image) is dropped, not inflated, and decoding
    /// goes on; without its profile, the gAMA next to it applies.
    @Test func ancillaryChunkBombIsDroppedAtTheChunkLimit() throws {
        let side = 2048
        let bomb = try PNGEncoder.encode(straightRGBA8: [UInt8](repeating: 0, count: side * side * 4),
                                         width: side, height: side, trying: [.libpngDefaults])
        let idat = try #require((8..<(bomb.count - 4)).first { bomb[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
        let length = bomb[(idat - 4)..<idat].reduce(0) { $0 << 8 | Int($1) }
        let stream = Array(bomb[(idat + 4)..<(idat + 4 + length)])
        let png = Self.inserting(Self.chunk("gAMA", Self.bigEndian(100_000))
                                 + Self.chunk("iCCP", Array("bomb".utf8) + [0, 0] + stream), into: try Self.sample())
        let decoded = try PNGDecoder.decode(png, name: "icc-bomb.png", limits: .init(maximumChunkBytes: 1 << 20))
        #expect(decoded.width == 20)
        #expect(decoded.gammaApplied)
    }
}
