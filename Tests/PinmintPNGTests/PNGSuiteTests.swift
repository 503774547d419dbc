import Foundation
import PinmintPNG
import Testing

/// PngSuite (Willem van Schaik; Resources/pngsuite, with its licence):
/// every valid file decodes to the pixels in the reference table, which
/// tools/pngsuite_reference.py computed with Pillow and pypng (not libpng);
/// every corrupt x*.png is refused with a message naming the file and problem.
enum PNGSuite {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")

    struct Expected: Sendable, CustomStringConvertible {
        let file: String
        let width: Int
        let height: Int
        let sha256: String
        var description: String { file }
    }

    static let table: [String] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("pngsuite-expected.tsv"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }()

    static let valid: [Expected] = table.compactMap { line in
        let fields = line.split(separator: "\t").map(String.init)
        guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]) else { return nil }
        return Expected(file: fields[0], width: width, height: height, sha256: fields[3])
    }

    static func path(_ file: String) -> String { folder.appendingPathComponent("pngsuite/\(file)").path }
}

struct PNGSuiteTests {
    @Test func referenceTableCoversTheWholeSuite() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: PNGSuite.folder.appendingPathComponent("pngsuite").path)
            .filter { $0.hasSuffix(".png") }
        #expect(files.count == 175)
        #expect(PNGSuite.table.count == files.count)
        #expect(PNGSuite.valid.count == files.count - 14)
    }

    @Test func sha256MatchesAKnownDigest() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test(arguments: PNGSuite.valid)
    func decodesToTheReferencePixels(_ expected: PNGSuite.Expected) throws {
        let decoded = try PNGDecoder.decode(contentsOfFile: PNGSuite.path(expected.file))
        #expect(decoded.width == expected.width && decoded.height == expected.height)
        #expect(SHA256.hex(decoded.straightRGBA8) == expected.sha256)
        // PngSuite names: the fourth letter is "i" for interlaced files.
        #expect(decoded.interlaced == (Array(expected.file)[3] == "i"), "\(expected.file)")
        #expect((decoded.straightRGBA16 != nil) == (decoded.bitDepth == 16))
    }

    /// Each corrupt file with a fragment of the problem it must report.
    @Test(arguments: [
        ("xc1n0g08.png", "colour type 1 does not exist"),
        ("xc9n2c08.png", "colour type 9 does not exist"),
        ("xcrn0g04.png", "damaged PNG signature"),
        ("xcsn0g01.png", "IDAT: CRC error"),
        ("xd0n2c08.png", "bit depth 0 is not allowed"),
        ("xd3n2c08.png", "bit depth 3 is not allowed"),
        ("xd9n2c08.png", "bit depth 99 is not allowed"),
        ("xdtn0g01.png", "IEND"),
        ("xhdn0g08.png", "IHDR: CRC error"),
        ("xlfn0g04.png", "damaged PNG signature"),
        ("xs1n0g01.png", "damaged PNG signature"),
        ("xs2n0g01.png", "not a PNG file"),
        ("xs4n0g01.png", "not a PNG file"),
        ("xs7n0g01.png", "damaged PNG signature"),
    ])
    func corruptFileIsRefused(_ file: String, _ problem: String) {
        let path = PNGSuite.path(file)
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(contentsOfFile: path) }
        #expect(error?.file == path)
        #expect(error?.problem.contains(problem) == true, "\(error?.problem ?? "no error")")
        #expect(error?.description.contains("\n") == false)
    }

    /// Gamma policy: gAMA alone is applied (most of PngSuite carries gAMA 1.0);
    /// no gAMA changes nothing. sRGB/iCCP: PNGDecoderLimitsTests.
    @Test(arguments: [
        ("g10n0g16.png", true), ("g25n2c08.png", true), ("g03n3p04.png", true),
        ("g04n0g16.png", true), ("basn2c08.png", true), ("f00n2c08.png", false),
    ])
    func gammaIsAppliedOnlyWhenGAMAStandsAlone(_ file: String, _ applied: Bool) throws {
        let decoded = try PNGDecoder.decode(contentsOfFile: PNGSuite.path(file))
        #expect(decoded.gammaApplied == applied)
        let raw = try PNGDecoder.decode(try PNGDecoder.readFile(PNGSuite.path(file)), applyGamma: false)
        #expect((raw.straightRGBA8 != decoded.straightRGBA8) == applied)
    }

    @Test func sixteenBitSourcesKeepTheirPrecisionInTheImage() throws {
        let decoded = try PNGDecoder.decode(contentsOfFile: PNGSuite.path("basn0g16.png"))
        let samples = try #require(decoded.straightRGBA16)
        // Opaque grey: premultiplied equals straight, all 16 bits kept.
        #expect(decoded.image.pixels == samples)
        #expect(samples.contains { $0 % 257 != 0 })
    }
}
