import Dispatch
import Foundation
import PinmintGeometry
import PinmintPNG

/// A folder of golden images and the inputs they were made from.
///
/// A **case** is an input (NAME.svg, NAME.json, …; in the suite folder or in
/// golden.conf's `inputs` folder) and, per scale S, its expected images in the
/// suite folder: `NAME@Sx.png` (for S = 1 also `NAME.png`), plus any accepted
/// alternatives `NAME@Sx.LABEL.png` (LABEL in kebab-case, e.g. `pin@2x.arm64.png`).
/// The case passes when the rendering matches any of them within the case's
/// tolerance. See Golden/README.md for the rules and golden.conf's format.
public struct GoldenSuite: Sendable {
    /// Which expected images `run` writes.
    public enum UpdateMode: String, Sendable, CaseIterable {
        /// Nothing is written.
        case none
        /// Write cases that have no expected image yet.
        case missing
        /// Write missing and failing cases (the primary NAME@Sx.png), and
        /// rewrite a primary image that cannot be read.
        case failed
        /// Rewrite every case that renders (an unreadable primary image too).
        case all
    }

    /// One expected-image slot: an input at one scale.
    public struct Case: Sendable, Equatable {
        /// The input's name without extension, e.g. "pin".
        public var name: String
        /// The pixel ratio the case renders at (1, 2, 3 …); `NAME@Sx.png`.
        public var scale: Int
        /// The input file.
        public var inputPath: String
        /// The input's variant this case draws (`selected` for NAME-selected), nil for the default.
        public var variant: String? = nil
        /// Accepted expected images that exist, the primary first.
        public var expectedPaths: [String]
        /// Where the primary expected image is (or will be written).
        public var primaryPath: String
        /// Why the input could not even be listed (e.g. a malformed marker
        /// description whose variants cannot be read, or two inputs of this
        /// name), nil when it could: the case is then reported as this error,
        /// once per scale, without rendering (so no update writes it).
        public var listingProblem: String? = nil
        /// "pin@2x".
        public var identifier: String { "\(name)@\(scale)x" }
    }

    /// The suite folder as given (where golden.conf and the expected images are).
    public let folder: String
    /// The folder's golden.conf, or the defaults when it has none.
    public let configuration: GoldenConfiguration
    /// Every case, sorted by name then scale.
    public let cases: [Case]
    /// Problems found while listing (an expected image without an input, a listed case without an input).
    public let listingErrors: [GoldenError]

    /// Lists the suite in `folder`, reading its golden.conf.
    ///
    /// - Throws: `GoldenError` when the folder or the inputs folder cannot be
    ///   listed or golden.conf is malformed.
    public init(folder: String, renderers: GoldenRenderers) throws(GoldenError) {
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .unreadableFolder(path: folder, problem: "no such folder")
        }
        self.folder = folder
        let configuration = try GoldenConfiguration(readingSuite: folder)
        self.configuration = configuration
        func list(_ path: String) throws(GoldenError) -> [String] {
            do { return try fileManager.contentsOfDirectory(atPath: path).sorted() } catch {
                throw .unreadableFolder(path: path, problem: "cannot be listed (\(error.localizedDescription))")
            }
        }
        let inputExtensions = renderers.inputExtensions
        var inputs: [String: String] = [:]
        var inputsByName: [String: [String]] = [:]
        for file in try list(configuration.inputsFolder) where !file.hasPrefix(".") {
            let parts = file.split(separator: ".")
            guard parts.count == 2, inputExtensions.contains(parts[1].lowercased()) else { continue }
            let path = PathName.appending(file, to: configuration.inputsFolder)
            inputsByName[String(parts[0]), default: []].append(path)
            if inputs[String(parts[0])] == nil { inputs[String(parts[0])] = path }
        }
        // Two inputs of one name (pin.svg and pin.json) make one case that cannot
        // say which to render: each of its scales is this error, and nothing is written.
        var listingProblems: [String: String] = [:]
        for (name, paths) in inputsByName where paths.count > 1 {
            listingProblems[name] = "\(paths.count == 2 ? "two" : "\(paths.count)") inputs are named '\(name)' ("
                + paths.joined(separator: ", ") + "); rename or remove all but one"
        }
        var errors: [GoldenError] = []
        // An input's other variants are cases of their own: NAME-VARIANT. An input whose
        // variants cannot be read is reported by its own cases (not also as a suite error).
        var variantOf: [String: String] = [:]
        for (name, path) in inputs.sorted(by: { $0.key < $1.key }) where listingProblems[name] == nil {
            do {
                for variant in try renderers.variants(of: path) where inputs["\(name)-\(variant)"] == nil {
                    inputs["\(name)-\(variant)"] = path
                    variantOf["\(name)-\(variant)"] = variant
                }
            } catch {
                listingProblems[name] = "\(error)"
            }
        }
        let names: [String]
        if let listed = configuration.caseNames {
            names = listed.filter { name in
                if inputs[name] != nil { return true }
                errors.append(.missingInput(name: name, looked: "\(configuration.inputsFolder)/\(name).{"
                    + inputExtensions.sorted().joined(separator: ",") + "}"))
                return false
            }
        } else {
            names = inputs.keys.sorted()
        }
        // Expected images: NAME.png, NAME@Sx.png, NAME@Sx.LABEL.png.
        var expected: [String: [String]] = [:]
        for file in try list(folder) where file.hasSuffix(".png") && !file.hasPrefix(".") {
            guard let key = GoldenSuite.expectedKey(of: file) else { continue }
            expected[key.name + "@\(key.scale)x", default: []].append(file)
            if !names.contains(key.name) {
                errors.append(.missingInput(name: file, looked: "\(configuration.inputsFolder)/\(key.name).{"
                    + inputExtensions.sorted().joined(separator: ",") + "}"
                    + (configuration.caseNames != nil ? " among golden.conf's cases" : "")))
            }
        }
        var cases: [Case] = []
        for name in names {
            let found = Set(expected.keys.filter { $0.hasPrefix(name + "@") }.compactMap { key in
                Int(key.dropFirst(name.count + 1).dropLast())
            })
            for scale in found.union(configuration.scales).sorted() {
                let files = (expected["\(name)@\(scale)x"] ?? []).sorted { first, second in
                    // The primary (NAME@Sx.png, else NAME.png at 1x) first, then alternatives by name.
                    func rank(_ file: String) -> Int { file == "\(name)@\(scale)x.png" ? 0 : file == "\(name).png" ? 1 : 2 }
                    return (rank(first), first) < (rank(second), second)
                }
                let primaryFile = files.first { $0 == "\(name)@\(scale)x.png" || $0 == "\(name).png" } ?? "\(name)@\(scale)x.png"
                cases.append(Case(name: name, scale: scale, inputPath: inputs[name]!, variant: variantOf[name],
                                  expectedPaths: files.map { PathName.appending($0, to: folder) },
                                  primaryPath: PathName.appending(primaryFile, to: folder),
                                  listingProblem: listingProblems[name]))
            }
        }
        // A section for no case would tune nothing: a misspelt name must not pass silently.
        for (section, line) in configuration.sectionLines.sorted(by: { $0.value < $1.value }) {
            func problem(_ text: String) -> GoldenError {
                .configuration(path: configuration.path ?? GoldenConfiguration.fileName, line: line, problem: "section [\(section)]: " + text)
            }
            let (name, scale) = GoldenConfiguration.section(section)
            guard inputs[name] != nil else {
                throw problem("no case '\(name)' (no input \(configuration.inputsFolder)/\(name).{"
                    + inputExtensions.sorted().joined(separator: ",") + "})")
            }
            // [name@Sx] of a case that runs: the case must have that scale (an expected image, or `scales`).
            if let scale, names.contains(name), !cases.contains(where: { $0.name == name && $0.scale == scale }) {
                let scales = cases.filter { $0.name == name }.map { "\($0.scale)" }.joined(separator: ", ")
                throw problem("\(name) has no @\(scale)x case (its scales: \(scales); "
                    + "'scales' or an expected image adds one)")
            }
        }
        self.cases = cases
        self.listingErrors = errors
    }

    /// The case name and scale an expected image's file name stands for, or nil for other PNGs.
    static func expectedKey(of file: String) -> (name: String, scale: Int)? {
        let stem = String(file.dropLast(4))
        guard let at = stem.lastIndex(of: "@") else {
            return stem.contains(".") || stem.isEmpty ? nil : (stem, 1)
        }
        let name = String(stem[..<at])
        let rest = stem[stem.index(after: at)...]
        let scalePart = rest.split(separator: ".", maxSplits: 1).first ?? ""
        guard scalePart.hasSuffix("x"), let scale = Int(scalePart.dropLast()), scale >= 1, !name.isEmpty else { return nil }
        return (name, scale)
    }

    /// Renders every case (on `jobs` threads), compares it with its expected
    /// images and, per `update`, writes expected images (atomically). Without
    /// an update nothing is written.
    public func run(renderers: GoldenRenderers, update: UpdateMode = .none,
                    jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> GoldenRun {
        let start = DispatchTime.now().uptimeNanoseconds
        final class Slots: @unchecked Sendable {
            var results: [GoldenCaseResult?]
            var next = 0
            let lock = NSLock()
            init(count: Int) { results = Array(repeating: nil, count: count) }
            func take() -> Int { lock.lock(); defer { lock.unlock() }; next += 1; return next - 1 }
            func store(_ result: GoldenCaseResult, at index: Int) { lock.lock(); results[index] = result; lock.unlock() }
        }
        let slots = Slots(count: cases.count)
        let cases = self.cases, configuration = self.configuration
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, cases.count))) { _ in
            while true {
                let index = slots.take()
                guard index < cases.count else { return }
                let testCase = cases[index]
                let settings = configuration.tolerance(for: testCase.name, scale: testCase.scale)
                let caseStart = DispatchTime.now().uptimeNanoseconds
                var result = GoldenSuite.check(testCase, settings: settings, renderers: renderers, update: update)
                result.seconds = Double(DispatchTime.now().uptimeNanoseconds - caseStart) / 1e9
                slots.store(result, at: index)
            }
        }
        let listing = listingErrors.map { error in
            GoldenCaseResult(identifier: { if case .missingInput(let name, _) = error { return name } else { return "suite" } }(),
                             scale: 0, status: .error(error.description))
        }
        return GoldenRun(folder: folder, results: listing + slots.results.map { $0! }, update: update,
                         seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// One case: render, compare with each accepted image (best first), update if asked.
    static func check(_ testCase: Case, settings: GoldenConfiguration.Tolerance, renderers: GoldenRenderers,
                      update: UpdateMode) -> GoldenCaseResult {
        var result = GoldenCaseResult(identifier: testCase.identifier, scale: testCase.scale, status: .passed)
        result.inputPath = testCase.inputPath
        result.primaryPath = testCase.primaryPath
        result.tolerance = settings.tolerance
        result.reason = settings.reason
        if let problem = testCase.listingProblem {
            result.status = .error(problem)
            return result
        }
        let actual: RGBA8Image
        do {
            actual = try renderers.render(inputPath: testCase.inputPath, scale: Double(testCase.scale),
                                          variant: testCase.variant)
        } catch {
            result.status = .error("\(error)")
            return result
        }
        result.actual = actual
        if testCase.expectedPaths.isEmpty {
            result.status = .missing
        } else {
            var best: (path: String, expected: RGBA8Image, diff: DiffResult)? = nil
            var sizeMismatch: (path: String, expected: RGBA8Image)? = nil
            var rewritesUnreadable = false
            for path in testCase.expectedPaths {
                let expected: RGBA8Image
                do { expected = try RGBA8Image(contentsOfFile: path) } catch {
                    result.status = .error(error.description)
                    // An update that rewrites failing cases rewrites an unreadable primary
                    // image too (a truncated write, a file that is not a PNG); an
                    // alternative, which no update writes, stays an error.
                    guard path == testCase.primaryPath, update == .failed || update == .all else { return result }
                    rewritesUnreadable = true
                    break
                }
                guard expected.width == actual.width, expected.height == actual.height else {
                    if sizeMismatch == nil { sizeMismatch = (path, expected) }
                    continue
                }
                guard let diff = try? PixelDiff.compare(expected: expected, actual: actual, options: settings.options) else {
                    continue
                }
                if best == nil || diff.diffPixels < best!.diff.diffPixels { best = (path, expected, diff) }
                if diff.isWithin(settings.tolerance) { break }
            }
            if rewritesUnreadable {
                result.expectedPath = testCase.primaryPath
            } else if let best {
                result.expectedPath = best.path
                result.expected = best.expected
                result.diffPixels = best.diff.diffPixels
                result.diffPercent = best.diff.diffPercent
                result.status = best.diff.isWithin(settings.tolerance) ? .passed : .failed
                if result.status == .failed {
                    result.diffImage = try? PixelDiff.compare(expected: best.expected, actual: actual, options: settings.options,
                                                              makesDiffImage: true).diffImage
                }
            } else if let sizeMismatch {
                result.expectedPath = sizeMismatch.path
                result.expected = sizeMismatch.expected
                result.status = .sizeMismatch(expectedWidth: sizeMismatch.expected.width,
                                              expectedHeight: sizeMismatch.expected.height,
                                              actualWidth: actual.width, actualHeight: actual.height)
            }
        }
        let writes: Bool
        switch update {
        case .none: writes = false
        case .missing: writes = result.status == .missing
        case .failed: writes = !result.status.passes
        case .all: writes = true
        }
        if writes {
            do {
                try PNGEncoder.writeAtomically(try actual.pngData(pixelRatio: Double(testCase.scale), mode: .default),
                                               to: testCase.primaryPath)
                result.updatedPath = testCase.primaryPath
            } catch {
                result.status = .error("\(testCase.primaryPath): could not write: \(error)")
            }
        }
        if result.status.passes { result.expected = nil; result.actual = nil }
        return result
    }
}

/// The outcome of one case at one scale.
public struct GoldenCaseResult: Sendable {
    /// How the case came out.
    public enum Status: Sendable, Equatable {
        /// Within the tolerance against one accepted image.
        case passed
        /// More pixels differ than the tolerance allows, against every accepted image.
        case failed
        /// No accepted image has the rendering's size (sizes in pixels).
        case sizeMismatch(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
        /// No expected image yet.
        case missing
        /// The input could not be rendered or an expected image could not be read
        /// (with `updatedPath` set, an unreadable primary image the update rewrote).
        case error(String)

        /// Whether the status is `passed`.
        public var passes: Bool { self == .passed }
        /// "passed", "failed", "size", "missing", "error".
        public var name: String {
            switch self {
            case .passed: return "passed"
            case .failed: return "failed"
            case .sizeMismatch: return "size"
            case .missing: return "missing"
            case .error: return "error"
            }
        }
    }

    /// "pin@2x" (or the file or "suite" for listing errors).
    public var identifier: String
    /// The pixel ratio the case rendered at.
    public var scale: Int
    /// How the case came out.
    public var status: Status
    /// The input file; nil for a listing error that has none.
    public var inputPath: String?
    /// The accepted image the rendering was compared with (the closest one).
    public var expectedPath: String?
    /// Where the case's primary expected image is (or would be written by an update).
    public var primaryPath: String?
    /// Wall-clock time of the case (render, compare, write), seconds.
    public var seconds: Double = 0
    /// Differing pixels against the closest accepted image; nil when nothing
    /// was compared (missing, size mismatch, error).
    public var diffPixels: Int?
    /// The same as a percentage of the image's pixels (0...100); nil likewise.
    public var diffPercent: Double?
    /// The tolerance golden.conf gives this case; nil for listing errors.
    public var tolerance: DiffTolerance?
    /// golden.conf's `reason` for the tolerance, "" when none is given.
    public var reason = ""
    /// Where an expected image was written by an update, if one was.
    public var updatedPath: String?
    /// Images kept for the report (only for cases that did not pass).
    public var expected: RGBA8Image?
    /// The rendering, straight RGBA8; nil when it passed or could not be rendered.
    public var actual: RGBA8Image?
    /// Pixelmatch's diff image for a failed case (the images' size); nil otherwise.
    public var diffImage: RGBA8Image?

    init(identifier: String, scale: Int, status: Status) {
        self.identifier = identifier
        self.scale = scale
        self.status = status
    }

    /// True when the case counts as good after the run: it passed, or it was
    /// (re)written by the update (an error is settled only when the update
    /// replaced the unreadable expected image that was the error).
    public var isSettled: Bool {
        status.passes || updatedPath != nil
    }
}

/// Every case's result, in the suite's order (listing errors first).
public struct GoldenRun: Sendable {
    /// The suite folder that was run.
    public var folder: String
    /// One result per case at each scale, listing errors first.
    public var results: [GoldenCaseResult]
    /// Which expected images the run was allowed to write.
    public var update: GoldenSuite.UpdateMode
    /// Wall-clock time of the run.
    public var seconds: Double

    /// Results whose `status.name` is `status` ("passed", "failed", "size",
    /// "missing", "error"); 0 for any other text.
    public func count(_ status: String) -> Int { results.filter { $0.status.name == status }.count }
    /// Expected images the update wrote.
    public var updatedCount: Int { results.filter { $0.updatedPath != nil }.count }
    /// True when some case is an error that the update did not settle (an
    /// unreadable expected image it rewrote is not one).
    public var hasErrors: Bool {
        results.contains { if case .error = $0.status { return !$0.isSettled } else { return false } }
    }
    /// True when every case passed or was written by the update.
    public var allSettled: Bool { results.allSatisfy(\.isSettled) }

    /// "20 cases: 18 passed, 1 failed, 1 missing (0.42 s)".
    public var summary: String {
        var parts: [String] = []
        for status in ["passed", "failed", "size", "missing", "error"] {
            let count = count(status)
            if count > 0 || status == "passed" {
                parts.append("\(count) " + (status == "size" ? "with another size" : status == "error" ? (count == 1 ? "error" : "errors") : status))
            }
        }
        if updatedCount > 0 { parts.append("\(updatedCount) written") }
        return "\(results.count) case\(results.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
            + String(format: " (%.2f s)", seconds)
    }
}
