import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintRaster
import PinmintSVG

/// `PinmintBench exactness [--cairo BIN] [--blend2d BIN] REPLAY`: how far each
/// renderer of the speed benchmark draws from the independent references, on
/// every benchmark scene. The speed target is where Blend2D stands; this
/// prints what that speed buys in exactness, beside Pinmint's.
///
/// Each C baseline draws the replay once and writes its PNGs into
/// Benchmarks/.work/exactness/NAME/; Pinmint draws the same scenes as it is
/// timed (`BenchScene.draw`, no conflation resolution) and writes its PNGs
/// into Benchmarks/.work/exactness/Pinmint/. Every image is compared with
/// Golden/reference/SCENE@Nx.png, SCENE the bench scene's reference scene
/// (`referenceScenes`), by `ReferenceDifference`, the measure of the
/// reference gate (max ≤ 8, mean ≤ 0.15). Pinmint's drawing of a bench
/// scene must also be, within 1 by that measure, its drawing of the
/// reference scene's SVG (element by element, as
/// `SVGDocument.render(on:scale:)` draws it), so that a bench scene and its
/// reference scene cannot drift apart unnoticed. Run from the repository's
/// top folder.
enum ExactnessBench {
    /// Each benchmark scene and the scene of Golden/scenes drawn from exactly
    /// its geometry. The bench's pin and ring are other shapes than the
    /// reference scenes `pin` and `ring` (stroked; two rings): theirs are
    /// `bench-pin` and `bench-ring`.
    static let referenceScenes: [String: String] = [
        "callout": "callout", "callout-stroked": "callout-stroked", "price-tag": "price-tag",
        "pin": "bench-pin", "ring": "bench-ring",
    ]

    static func main(_ arguments: [String]) throws {
        var baselines: [(name: String, program: String)] = [], replay: String?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--cairo" where index + 1 < arguments.count:
                baselines.append(("cairo", arguments[index + 1])); index += 2
            case "--blend2d" where index + 1 < arguments.count:
                baselines.append(("Blend2D", arguments[index + 1])); index += 2
            case let argument where replay == nil && !argument.hasPrefix("-"):
                replay = argument; index += 1
            default: print("PinmintBench exactness: unknown argument \(arguments[index])"); exit(2)
            }
        }
        guard let replay else {
            print("usage: PinmintBench exactness [--cairo BIN] [--blend2d BIN] REPLAY"); exit(2)
        }
        let references = try referencePairs()
        let pinmintFolder = "Benchmarks/.work/exactness/Pinmint"
        try FileManager.default.createDirectory(atPath: pinmintFolder, withIntermediateDirectories: true)
        // Each baseline writes its PNGs (one timed iteration; the time is not used).
        var folders: [String] = []
        for baseline in baselines {
            let folder = "Benchmarks/.work/exactness/\(baseline.name)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = try measureProcess([baseline.program, replay, "1", folder])
            folders.append(folder)
        }
        let renderers = ["Pinmint"] + baselines.map(\.name)
        print("Distance from the references (Golden/reference, 16x16 supersampled), 8-bit premultiplied units;")
        print("gate: max ≤ 8 and mean ≤ 0.15. The scenes of the speed benchmark (their reference scene"
              + " in parentheses where its name differs):")
        print("scene".padding(toLength: 22, withPad: " ", startingAt: 0)
              + renderers.map { $0.padding(toLength: 22, withPad: " ", startingAt: 0) }.joined())
        var passes = [Int](repeating: 0, count: renderers.count)
        for pair in references {
            let pinmint = try pair.drawPinmint(fillTolerance: nil)
            try Data(try pinmint.pngData()).write(to: URL(fileURLWithPath: "\(pinmintFolder)/\(pair.name).png"))
            var images = [pinmint]
            for folder in folders { images.append(try RGBA8Image(contentsOfFile: "\(folder)/\(pair.name).png")) }
            var line = pair.label.padding(toLength: 22, withPad: " ", startingAt: 0)
            for (column, image) in images.enumerated() {
                let difference = try pair.difference(image, drawnBy: renderers[column])
                if difference.passesGate { passes[column] += 1 }
                line += String(format: "max %5.2f mean %.3f%@", difference.maximum, difference.mean,
                               difference.passesGate ? "  " : "✗ ")
            }
            print(line)
        }
        print("within the gate: " + zip(renderers, passes).map { "\($0) \($1) of \(references.count)" }.joined(separator: ", "))
    }

    /// A benchmark scene at one scale, with its reference image and the
    /// reference scene's SVG.
    struct ReferencePair {
        var scene: BenchScene
        var scale: Double
        var referenceScene: String
        var document: SVGDocument
        var reference: RGBA8Image
        /// "callout@2x"
        var name: String { "\(scene.name)@\(Int(scale))x" }
        /// The name, and the reference scene in parentheses where its name differs.
        var label: String { referenceScene == scene.name ? name : "\(name) (\(referenceScene))" }

        /// Pinmint's drawing of the scene as it is timed (`BenchScene.draw`,
        /// fills flattened at `fillTolerance`, strokes at half of it; the
        /// canvas's defaults when nil), after checking that it is, within
        /// 1, Pinmint's drawing of the reference scene's SVG at the same tolerances.
        func drawPinmint(fillTolerance: Double?) throws -> RGBA8Image {
            let size = scene.pixelSize(scale: scale)
            let canvas = try BenchScene.makeCanvas(width: size.width, height: size.height, fillTolerance: fillTolerance)
            var path = Path()
            try scene.draw(on: canvas, scale: scale, path: &path)
            let pinmint = RGBA8Image(canvas)
            let svgCanvas = try BenchScene.makeCanvas(width: size.width, height: size.height, fillTolerance: fillTolerance)
            try document.render(on: svgCanvas, scale: scale)
            let drift = ReferenceDifference(pinmint, RGBA8Image(svgCanvas)).maximum
            guard drift <= 1 else {
                throw BenchError("\(name) differs by up to \(drift) from Golden/scenes/\(referenceScene).svg "
                                 + "drawn by Pinmint: not the same geometry")
            }
            return pinmint
        }

        /// The gate's measure of `image` (drawn by `renderer`) against the reference.
        func difference(_ image: RGBA8Image, drawnBy renderer: String) throws -> ReferenceDifference {
            guard image.width == reference.width && image.height == reference.height else {
                throw BenchError("\(renderer) drew \(name) at \(image.width)x\(image.height), "
                                 + "the reference is \(reference.width)x\(reference.height)")
            }
            return ReferenceDifference(image, reference)
        }
    }

    /// Every benchmark scene at every scale with its reference (run from
    /// the repository's top folder); a scene without a reference scene is
    /// reported and left out.
    static func referencePairs() throws -> [ReferencePair] {
        guard FileManager.default.fileExists(atPath: "Golden/reference") else {
            throw BenchError("Golden/reference not found: run from the repository's top folder")
        }
        var pairs: [ReferencePair] = []
        for scene in BenchScenes.all {
            guard let referenceScene = referenceScenes[scene.name] else {
                print("\(scene.name): no reference scene (add one to Golden/scenes and to referenceScenes)")
                continue
            }
            let document = try SVGDocument(contentsOfFile: "Golden/scenes/\(referenceScene).svg")
            for scale in scales {
                let reference = try RGBA8Image(contentsOfFile: "Golden/reference/\(referenceScene)@\(Int(scale))x.png")
                pairs.append(ReferencePair(scene: scene, scale: scale, referenceScene: referenceScene,
                                           document: document, reference: reference))
            }
        }
        return pairs
    }
}
