import Foundation
import PinmintMarkers
import PinmintPNG
import PinmintRaster
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A renderer over the shipped fonts (loading them takes about 10 ms).
/// Renderers are not thread-safe, so every test makes its own.
/// Shipped fonts only: a golden must not depend on the fonts of the machine.
func makeRenderer() throws -> MarkerRenderer { try MarkerRenderer(includeSystemFonts: false) }

/// Golden/markers/<case>.json rendered at @1x, @2x and @3x and compared
/// with <case>[-variant]@<s>x.png; rules and tolerance in Golden/README.md.
@Suite struct MarkerGoldenTests {
    static let folder = repositoryRoot.appendingPathComponent("Golden/markers")
    static let failures = repositoryRoot.appendingPathComponent(".golden-failures/markers")
    /// Per channel, 8-bit straight alpha: room for FreeType versions that
    /// round hinted outlines a little differently.
    static let tolerance = 2

    static let cases: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    @Test func everyPresetHasItsCases() {
        // The seed- presets are drawn by the cases of the neutral ones that ask for the seeds' look.
        for preset in MarkerStyle.presetNames where !preset.hasPrefix("seed-") {
            for kind in ["short", "long", "cjk", "empty"] {
                #expect(MarkerGoldenTests.cases.contains("\(preset)-\(kind)"), "missing Golden/markers/\(preset)-\(kind).json")
            }
        }
        #expect(MarkerGoldenTests.cases.contains { $0.hasPrefix("custom-") })
    }

    @Test(arguments: cases)
    func markerMatchesGolden(name: String) throws {
        let file = try MarkerFile(contentsOfFile: MarkerGoldenTests.folder.appendingPathComponent("\(name).json").path)
        let descriptions = try file.style.resolve(values: file.values)
        let renderer = try makeRenderer()
        for description in descriptions {
            for scale in [1, 2, 3] {
                let marker = try renderer.render(description, scale: Double(scale))
                let variant = description.variant == "default" ? "" : "-\(description.variant)"
                let golden = "\(name)\(variant)@\(scale)x"
                try compare(marker.canvas, scale: Double(scale), golden: golden)
            }
        }
    }

    private func compare(_ canvas: Canvas, scale: Double, golden name: String) throws {
        let path = MarkerGoldenTests.folder.appendingPathComponent("\(name).png").path
        if ProcessInfo.processInfo.environment["PINMINT_RECORD"] == "1" {
            try PNGEncoder.writeAtomically(try PNGEncoder.encode(canvas, pixelRatio: scale, mode: .small), to: path)
            return
        }
        let expected = try PNGDecoder.decode(contentsOfFile: path)
        try #require(expected.width == canvas.width && expected.height == canvas.height,
                     "\(name): rendered \(canvas.width)x\(canvas.height), golden \(expected.width)x\(expected.height)")
        let actual = canvas.straightRGBA8()
        var worst = 0, differing = 0
        var diff = [UInt8](repeating: 0, count: actual.count)
        for pixel in 0..<(actual.count / 4) {
            var pixelWorst = 0
            for channel in 0..<4 {
                pixelWorst = max(pixelWorst, abs(Int(actual[pixel * 4 + channel]) - Int(expected.straightRGBA8[pixel * 4 + channel])))
            }
            worst = max(worst, pixelWorst)
            if pixelWorst > MarkerGoldenTests.tolerance {
                differing += 1
                diff[pixel * 4] = 255
            }
            diff[pixel * 4 + 3] = pixelWorst > MarkerGoldenTests.tolerance ? 255 : 0
        }
        if differing > 0 {
            let folder = MarkerGoldenTests.failures
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try PNGEncoder.writeAtomically(try PNGEncoder.encode(canvas, pixelRatio: scale),
                                           to: folder.appendingPathComponent("\(name)-actual.png").path)
            try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: diff, width: canvas.width, height: canvas.height),
                                           to: folder.appendingPathComponent("\(name)-diff.png").path)
        }
        #expect(differing == 0, "\(name): \(differing) pixels differ by more than \(MarkerGoldenTests.tolerance) (worst \(worst)); see .golden-failures/markers/")
    }
}
