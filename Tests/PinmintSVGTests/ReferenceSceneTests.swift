import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import PinmintSVG
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

    @Test(arguments: cases)
    func sceneMatchesReference(_ scene: String, _ scale: Int) throws {
        let source = repositoryRoot.appendingPathComponent("Golden/scenes/\(scene).svg").path
        let referencePath = repositoryRoot.appendingPathComponent("Golden/reference/\(scene)@\(scale)x.png").path
        let document = try SVGDocument(contentsOfFile: source)
        let canvas = try document.render(scale: Double(scale))
        let reference = try PNGDecoder.decode(contentsOfFile: referencePath)
        try #require(canvas.width == reference.width && canvas.height == reference.height,
                     "\(scene)@\(scale)x: size \(canvas.width)x\(canvas.height), reference \(reference.width)x\(reference.height)")
        let actual = canvas.straightRGBA8()
        let difference = ReferenceDifference(actual: actual, expected: reference.straightRGBA8)
        let passes = difference.passesGate
        let name = "\(scene)@\(scale)x"
        if !passes { try writeFailure(scene: name, actual: actual, reference: reference) }
        #expect(passes, "\(name): \(difference) (gate: max ≤ 8, mean ≤ 0.15)")
    }

    /// Writes the actual image and a side-by-side reference | actual | difference to .golden-failures/.
    func writeFailure(scene: String, actual: [UInt8], reference: PNGDecoder.Decoded) throws {
        let folder = repositoryRoot.appendingPathComponent(".golden-failures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let width = reference.width, height = reference.height
        var sideBySide = [UInt8](repeating: 255, count: width * 3 * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let source = (y * width + x) * 4
                for (panel, pixels) in [reference.straightRGBA8, actual].enumerated() {
                    let target = (y * width * 3 + panel * width + x) * 4
                    for channel in 0..<4 { sideBySide[target + channel] = pixels[source + channel] }
                }
                let difference = (0..<4).map { abs(Int(actual[source + $0]) - Int(reference.straightRGBA8[source + $0])) }.max()!
                let target = (y * width * 3 + 2 * width + x) * 4
                let level = UInt8(min(255, difference * 16))
                sideBySide[target] = 255; sideBySide[target + 1] = 255 - level; sideBySide[target + 2] = 255 - level
                sideBySide[target + 3] = 255
            }
        }
        try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: actual, width: width, height: height),
                                       to: folder.appendingPathComponent("\(scene).actual.png").path)
        try PNGEncoder.writeAtomically(try PNGEncoder.encode(straightRGBA8: sideBySide, width: width * 3, height: height),
                                       to: folder.appendingPathComponent("\(scene).diff.png").path)
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
        let reference = try PNGDecoder.decode(
            contentsOfFile: repositoryRoot.appendingPathComponent("Golden/reference/callout@\(scale)x.png").path)
        let difference = ReferenceDifference(actual: canvas.straightRGBA8(), expected: reference.straightRGBA8)
        #expect(difference.passesGate, "callout via arcTo @\(scale)x: \(difference)")
    }
}

/// The README's pictures are Pinmint's own output: they must stay what the renderer draws.
struct SampleImageTests {
    @Test(arguments: ["callout-shadow", "price-tag", "pin"])
    func sampleIsWhatTheRendererDraws(_ scene: String) throws {
        let document = try SVGDocument(contentsOfFile: repositoryRoot.appendingPathComponent("Golden/scenes/\(scene).svg").path)
        let actual = try document.render(scale: 2).straightRGBA8()
        let sample = try PNGDecoder.decode(
            contentsOfFile: repositoryRoot.appendingPathComponent("Golden/samples/\(scene)@2x.png").path)
        try #require(actual.count == sample.straightRGBA8.count)
        let worst = zip(actual, sample.straightRGBA8).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(scene)@2x differs from Golden/samples by up to \(worst)")
    }
}
