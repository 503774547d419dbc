import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import PinmintSVG
import PinmintTesting
import Testing

/// The repository's top folder, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Every scene in Golden/scenes against its independent reference (skia at
/// 16x16 supersampling, box-filtered; see Golden/README.md).
struct ReferenceSceneTests {
    static let cases: [(scene: String, scale: Int)] = {
        let folder = repositoryRoot.appendingPathComponent("Golden/scenes")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".svg") }.sorted().flatMap { name in
            [1, 2, 3].map { (String(name.dropLast(4)), $0) }
        }
    }()

    @Test func everySceneHasReferences() {
        #expect(ReferenceSceneTests.cases.count >= 66)
    }

    /// The reference gate (`ReferenceDifference`): premultiplied, max ≤ 8 and mean ≤ 0.15.
    static let gate = GoldenTolerance.channels(maximum: ReferenceDifference.gateMaximum, mean: ReferenceDifference.gateMean,
                                               alpha: .premultiplied)

    /// A mismatch writes Golden/reference/.golden-failures/NAME.actual.png and
    /// NAME.diff.png (reference | actual | difference). The references are
    /// skia's, so record mode never replaces them (`record: false`).
    @Test(arguments: cases)
    func sceneMatchesReference(_ scene: String, _ scale: Int) throws {
        let source = repositoryRoot.appendingPathComponent("Golden/scenes/\(scene).svg").path
        let canvas = try SVGDocument(contentsOfFile: source).render(scale: Double(scale))
        assertImageMatchesGolden(canvas, named: "\(scene)@\(scale)x", directory: "../../Golden/reference",
                                 tolerance: ReferenceSceneTests.gate, record: false)
    }

    /// Seed 004 builds its bubble from four tangent arcs; built that way with
    /// `arcTo`, it must match the reference drawn from SVG arcs.
    @Test(arguments: [1, 2, 3])
    func calloutFromTangentArcsMatchesReference(_ scale: Int) throws {
        let minX = 10.0, minY = 10.0, maxX = 210.0, maxY = 70.0, midX = 110.0, radius = 6.0
        var path = Path()
        path.move(to: Point(midX, maxY + 10))
        path.line(to: Point(midX - 10, maxY))
        path.arcTo(tangent1: Point(minX, maxY), tangent2: Point(minX, minY), radius: radius)
        path.arcTo(tangent1: Point(minX, minY), tangent2: Point(maxX, minY), radius: radius)
        path.arcTo(tangent1: Point(maxX, minY), tangent2: Point(maxX, maxY), radius: radius)
        path.arcTo(tangent1: Point(maxX, maxY), tangent2: Point(midX, maxY), radius: radius)
        path.line(to: Point(midX + 10, maxY))
        path.close()
        let canvas = try Canvas(width: 220 * scale, height: 90 * scale)
        try canvas.fill(path, paint: .solid(Color(red8: 77, green8: 77, blue8: 77, alpha: 0.8)),
                        transform: .scale(Double(scale)))
        assertImageMatchesGolden(canvas, named: "callout@\(scale)x", directory: "../../Golden/reference",
                                 tolerance: ReferenceSceneTests.gate, record: false)
    }
}

/// The README's pictures are Pinmint's own output: they must stay what the renderer draws.
struct SampleImageTests {
    @Test(arguments: ["callout-shadow", "price-tag", "pin"])
    func sampleIsWhatTheRendererDraws(_ scene: String) throws {
        let document = try SVGDocument(contentsOfFile: repositoryRoot.appendingPathComponent("Golden/scenes/\(scene).svg").path)
        assertImageMatchesGolden(try document.render(scale: 2), named: "\(scene)@2x", directory: "../../Golden/samples",
                                 tolerance: .channels(maximum: 1))
    }
}
