import Foundation
import PinmintDiff
import PinmintPNG
import PinmintRaster
import PinmintSVG
import Testing

/// The renderers the command registers, for the library's tests.
let svgRenderers: GoldenRenderers = {
    var renderers = GoldenRenderers()
    renderers.register(fileExtension: "svg") { path, scale in try SVGDocument(contentsOfFile: path).render(scale: scale) }
    return renderers
}()

/// A suite folder with square.svg (a blue square, 10x10) and circle.svg, plus `files`.
func makeSuite(_ files: [String: String] = [:]) throws -> URL {
    let folder = try temporaryFolder()
    let svgs = [
        "square.svg": "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect x='2' y='2' width='6' height='6' fill='#1E88E5'/></svg>",
        "circle.svg": "<svg xmlns='http://www.w3.org/2000/svg' width='12' height='12'><circle cx='6' cy='6' r='4.3' fill='#E53935'/></svg>",
    ]
    for (name, text) in svgs.merging(files, uniquingKeysWith: { $1 }) {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    return folder
}

func listing(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

func render(_ svg: String, scale: Double) throws -> RGBA8Image {
    RGBA8Image(try SVGDocument(data: Array(svg.utf8)).render(scale: scale))
}

func writePNG(_ image: RGBA8Image, _ url: URL) throws {
    try PNGEncoder.writeAtomically(try image.pngData(), to: url.path)
}

struct GoldenSuiteTests {
    @Test func withoutUpdateNothingIsWritten() throws {
        let folder = try makeSuite(["golden.conf": "scales = 1 2\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try listing(folder)
        let suite = try GoldenSuite(folder: folder.path, renderers: svgRenderers)
        let run = suite.run(renderers: svgRenderers)
        #expect(run.results.map(\.identifier) == ["circle@1x", "circle@2x", "square@1x", "square@2x"])
        #expect(run.results.allSatisfy { $0.status == .missing })
        #expect(!run.allSettled)
        #expect(try listing(folder) == before)
    }

    @Test func updateMissingWritesThemThenTheyPass() throws {
        let folder = try makeSuite(["golden.conf": "scales = 1 3\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers, update: .missing)
        #expect(first.updatedCount == 4 && first.allSettled)
        #expect(try listing(folder).filter { $0.hasSuffix(".png") }
            == ["circle@1x.png", "circle@3x.png", "square@1x.png", "square@3x.png"])
        let written = try RGBA8Image(contentsOfFile: folder.appendingPathComponent("square@3x.png").path)
        #expect(written.width == 30 && written.height == 30)
        let second = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        #expect(second.results.allSatisfy { $0.status == .passed } && second.updatedCount == 0)
    }

    @Test func failuresAreFoundAndUpdateModesWriteWhatTheySay() throws {
        let folder = try makeSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers, update: .missing)
        // The square's golden now shows a different square: the case fails.
        let other = try render("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect x='3' y='2' width='6' height='6' fill='#1E88E5'/></svg>", scale: 1)
        try writePNG(other, folder.appendingPathComponent("square@1x.png"))
        let circleBytes = try Data(contentsOf: folder.appendingPathComponent("circle@1x.png"))
        let failing = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        let square = try #require(failing.results.first { $0.identifier == "square@1x" })
        #expect(square.status == .failed && square.diffPixels! >= 6)
        #expect(square.expected != nil && square.actual != nil && square.diffImage != nil)
        // --update missing leaves a failing case alone.
        let missingOnly = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers, update: .missing)
        #expect(missingOnly.updatedCount == 0 && !missingOnly.allSettled)
        // --update failed rewrites it and nothing else.
        let failed = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers, update: .failed)
        #expect(failed.results.filter { $0.updatedPath != nil }.map(\.identifier) == ["square@1x"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("circle@1x.png")) == circleBytes)
        #expect(try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers).allSettled)
        // --update all rewrites everything.
        let all = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers, update: .all)
        #expect(all.updatedCount == 2)
    }

    @Test func anAcceptedAlternativeMakesTheCasePass() throws {
        let folder = try makeSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = try render("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='10' height='10' fill='black'/></svg>", scale: 1)
        try writePNG(other, folder.appendingPathComponent("square@1x.png"))
        try writePNG(try svgRenderers.render(inputPath: folder.appendingPathComponent("square.svg").path, scale: 1),
                     folder.appendingPathComponent("square@1x.other-machine.png"))
        try writePNG(try svgRenderers.render(inputPath: folder.appendingPathComponent("circle.svg").path, scale: 1),
                     folder.appendingPathComponent("circle.png"))
        let run = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        let square = try #require(run.results.first { $0.identifier == "square@1x" })
        #expect(square.status == .passed)
        #expect(square.expectedPath?.hasSuffix("square@1x.other-machine.png") == true)
        // NAME.png is the @1x image.
        #expect(run.results.first { $0.identifier == "circle@1x" }?.status == .passed)
        #expect(run.results.count == 2)
    }

    @Test func toleranceComesFromTheConfigurationPerCaseAndScale() throws {
        let folder = try makeSuite(["golden.conf": """
            # defaults first
            scales = 1 2
            max-diff-pixels = 0
            [square]
            max-diff-pixels = 100
            reason = moves on purpose
            [square@2x]
            max-diff-pixels = 1
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let moved = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect x='3' y='2' width='6' height='6' fill='#1E88E5'/></svg>"
        try writePNG(try render(moved, scale: 1), folder.appendingPathComponent("square@1x.png"))
        try writePNG(try render(moved, scale: 2), folder.appendingPathComponent("square@2x.png"))
        let run = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        let one = try #require(run.results.first { $0.identifier == "square@1x" })
        let two = try #require(run.results.first { $0.identifier == "square@2x" })
        #expect(one.status == .passed && one.tolerance == .pixels(100) && one.reason == "moves on purpose")
        #expect(two.status == .failed && two.tolerance == .pixels(1) && two.reason == "moves on purpose")
    }

    @Test func sizeMismatchIsItsOwnStatus() throws {
        let folder = try makeSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePNG(try svgRenderers.render(inputPath: folder.appendingPathComponent("square.svg").path, scale: 2),
                     folder.appendingPathComponent("square@1x.png"))
        let run = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        #expect(run.results.first { $0.identifier == "square@1x" }?.status
            == .sizeMismatch(expectedWidth: 20, expectedHeight: 20, actualWidth: 10, actualHeight: 10))
    }

    @Test func jsonInputsAreUnsupportedUntilARendererIsRegistered() throws {
        let folder = try makeSuite(["marker.json": "{\"kind\": \"pin\"}"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        let marker = try #require(run.results.first { $0.identifier == "marker@1x" })
        guard case .error(let message) = marker.status else { Issue.record("expected an error"); return }
        #expect(message.contains("marker.json") && message.contains("unsupported input"))
        #expect(run.hasErrors)
        // One line plugs a renderer in.
        var renderers = svgRenderers
        renderers.register(fileExtension: "json") { _, scale in try Canvas(width: Int(4 * scale), height: Int(4 * scale)) }
        let plugged = try GoldenSuite(folder: folder.path, renderers: renderers).run(renderers: renderers, update: .missing)
        #expect(!plugged.hasErrors && plugged.allSettled)
    }

    /// pin.svg and pin.json were one case rendered from pin.json: pin.svg was
    /// dropped without a word, and `--update all` wrote pin.json's image.
    @Test func twoInputsOfOneNameAreAnErrorNamingBoth() throws {
        let folder = try makeSuite(["square.json": "{}"])
        defer { try? FileManager.default.removeItem(at: folder) }
        var renderers = svgRenderers
        renderers.register(fileExtension: "json") { _, scale in try Canvas(width: Int(4 * scale), height: Int(4 * scale)) }
        let before = try listing(folder)
        let run = try GoldenSuite(folder: folder.path, renderers: renderers).run(renderers: renderers, update: .all)
        let square = try #require(run.results.first { $0.identifier == "square@1x" })
        guard case .error(let message) = square.status else { Issue.record("expected an error, got \(square.status)"); return }
        #expect(message == "two inputs are named 'square' (\(folder.path)/square.json, \(folder.path)/square.svg); "
                + "rename or remove all but one")
        #expect(run.hasErrors && square.updatedPath == nil)
        // The other case still runs and is written; the ambiguous one is not.
        #expect(try listing(folder) == (before + ["circle@1x.png"]).sorted())
    }

    static let badConfigurations: [(String, String)] = [
        ("threshold = 2\n", "golden.conf:1: threshold '2'"),
        ("scales = 1 two\n", "golden.conf:1: scales"),
        ("\n\nfrobnicate = 1\n", "golden.conf:3: unknown key 'frobnicate'"),
        ("[square]\nscales = 2\n", "golden.conf:2: scales belongs before"),
        ("max-diff-pixels = -1\n", "max-diff-pixels '-1'"),
        ("include-aa = maybe\n", "include-aa 'maybe'"),
        ("just words\n", "expected 'key = value'"),
        // A section for no case was accepted and tuned nothing.
        ("threshold = 0.2\n[nope]\nthreshold = 0.3\n", "golden.conf:2: section [nope]: no case 'nope' (no input "),
        ("[square@3x]\nmax-diff-pixels = 1\n", "golden.conf:1: section [square@3x]: square has no @3x case (its scales: 1;"),
        ("[square@two]\n", "golden.conf:1: section [square@two]: no case 'square@two' (no input "),
    ]

    @Test(arguments: badConfigurations.indices)
    func malformedConfigurationNamesTheLine(_ index: Int) throws {
        let (text, message) = GoldenSuiteTests.badConfigurations[index]
        let folder = try makeSuite(["golden.conf": text])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try GoldenSuite(folder: folder.path, renderers: svgRenderers)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    /// A golden.conf that was a folder, or held bytes that are not UTF-8, was
    /// "golden.conf:0: cannot be read as UTF-8 text": no line 0, and the wrong reason for a folder.
    @Test func unreadableConfigurationSaysWhy() throws {
        let folder = try makeSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("golden.conf")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: false)
        #expect { try GoldenSuite(folder: folder.path, renderers: svgRenderers) } throws: { error in
            "\(error)" == "\(path.path): a folder, not a text file"
        }
        try FileManager.default.removeItem(at: path)
        try Data([UInt8]("scales = 1\n".utf8) + [0x74, 0xFF, 0x0A]).write(to: path)
        #expect { try GoldenSuite(folder: folder.path, renderers: svgRenderers) } throws: { error in
            "\(error)" == "\(path.path):2: not UTF-8 text (golden.conf is read as UTF-8)"
        }
    }

    /// Regression: a golden.conf saved with a byte-order mark ("UTF-8 with
    /// BOM"), and a section for a case whose name holds '@', were refused
    /// once lines and sections came to be checked.
    @Test func aByteOrderMarkAndACaseNameWithAnAtSignAreAccepted() throws {
        let square = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='4' height='4'/></svg>"
        let folder = try makeSuite(["user@home.svg": square])
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "threshold = 0.2\n[user@home]\nmax-diff-pixels = 3\n[user@home@1x]\nmax-diff-pixels = 4\n"
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: folder.appendingPathComponent("golden.conf"))
        let configuration = try GoldenSuite(folder: folder.path, renderers: svgRenderers).configuration
        #expect(configuration.defaults.options.threshold == 0.2)
        #expect(configuration.tolerance(for: "user@home", scale: 2).tolerance == .pixels(3))
        #expect(configuration.tolerance(for: "user@home", scale: 1).tolerance == .pixels(4))
    }

    @Test func expectedImagesWithoutInputAreReported() throws {
        let folder = try makeSuite()
        defer { try? FileManager.default.removeItem(at: folder) }
        try writePNG(RGBA8Image(width: 1, height: 1, pixels: [0, 0, 0, 0]), folder.appendingPathComponent("gone@2x.png"))
        let run = try GoldenSuite(folder: folder.path, renderers: svgRenderers).run(renderers: svgRenderers)
        #expect(run.hasErrors)
        #expect(run.results.contains { $0.identifier == "gone@2x.png" })
    }

    @Test func jobsDoNotChangeTheResults() throws {
        let suite = try GoldenSuite(folder: repositoryRoot.appendingPathComponent("Golden/reference").path, renderers: svgRenderers)
        let one = suite.run(renderers: svgRenderers, jobs: 1).results.map { "\($0.identifier) \($0.status.name) \($0.diffPixels ?? -1)" }
        let four = suite.run(renderers: svgRenderers, jobs: 4).results.map { "\($0.identifier) \($0.status.name) \($0.diffPixels ?? -1)" }
        #expect(one == four)
    }

    /// The project's own suites (Golden/README.md): the README's samples
    /// against our renderer, and every scene against skia's references.
    @Test(arguments: ["Golden/samples", "Golden/reference"])
    func projectSuitePasses(_ path: String) throws {
        let suite = try GoldenSuite(folder: repositoryRoot.appendingPathComponent(path).path, renderers: svgRenderers)
        #expect(suite.cases.count >= (path.hasSuffix("samples") ? 3 : 60))
        let run = suite.run(renderers: svgRenderers)
        for result in run.results where !result.status.passes {
            Issue.record("\(path): \(result.identifier) \(result.status.name): \(result.diffPixels ?? 0) pixels, tolerance \(result.tolerance ?? .exact)")
        }
        if !run.allSettled {
            let folder = repositoryRoot.appendingPathComponent(".golden-failures")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try GoldenReport.write(run, to: folder.appendingPathComponent(path.replacingOccurrences(of: "/", with: "-") + ".html").path)
        }
    }
}
