import Foundation
import PinmintMarkers
import PinmintPNG
import PinmintRaster
import PinmintTesting
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
    /// Per channel, 8-bit straight alpha: room for FreeType versions that
    /// round hinted outlines a little differently. A mismatch writes
    /// Golden/markers/.golden-failures/NAME.actual.png and NAME.diff.png.
    static let tolerance = 2.0

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
                assertImageMatchesGolden(marker.canvas, named: golden, directory: "../../Golden/markers",
                                         tolerance: .channels(maximum: MarkerGoldenTests.tolerance))
            }
        }
    }
}
