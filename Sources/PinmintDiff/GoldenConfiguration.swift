import Foundation
import PinmintGeometry
import PinmintPNG

/// A golden suite's `golden.conf`: where the inputs are, which scales every
/// case has, and the tolerance, for all cases and per case. The format is
/// documented in Golden/README.md; in short:
///
///     # comments start with '#'
///     inputs = ../scenes        # folder of the case inputs, relative to this file (default: the suite folder)
///     cases = pin price-tag     # only these inputs (default: every input in the folder)
///     scales = 1 2 3            # scales every case must have (default 1)
///     threshold = 0.1           # pixelmatch threshold, 0...1
///     include-aa = false        # count anti-aliased pixels
///     max-diff-pixels = 0       # or max-diff-percent = 0.5
///     pixelmatch = 7            # 5 or 7 (DiffOptions.Semantics)
///
///     [caps@2x]                 # one case at one scale; [caps] for all its scales
///     max-diff-pixels = 12
///     reason = guide lines cross the caps (conflation)
public struct GoldenConfiguration: Sendable, Equatable {
    /// File name looked for in a suite folder.
    public static let fileName = "golden.conf"
    /// The largest golden.conf read (1 MiB): a settings file, not data.
    public static let maximumFileBytes = 1 << 20

    /// Comparison settings of one case (or the defaults).
    public struct Tolerance: Sendable, Equatable {
        /// Pixelmatch options (only threshold, includeAntiAliasing and semantics are read from the file).
        public var options = DiffOptions()
        /// How many pixels may differ (default none).
        public var tolerance = DiffTolerance.exact
        /// Why this case has its tolerance, shown in the report (may be empty).
        public var reason = ""

        /// Pixelmatch's defaults (threshold 0.1, anti-aliasing not counted,
        /// version 7) and no differing pixel allowed.
        public init() {}
    }

    /// Folder of the inputs (absolute, or relative to the current directory).
    public var inputsFolder: String
    /// Case names to run; nil: every input found.
    public var caseNames: [String]?
    /// Scales every case must have, whether or not expected images exist yet.
    public var scales: [Int] = [1]
    /// Settings for every case without its own section.
    public var defaults = Tolerance()
    /// Sections by name: "caps" (every scale) or "caps@2x" (one scale).
    public var sections: [String: Tolerance] = [:]
    /// The line (from 1) of each section's first `[name]` header, so that a
    /// section for no case can be refused by line (see `GoldenSuite`).
    public var sectionLines: [String: Int] = [:]
    /// Where the file was read from, nil for the defaults of a folder without one.
    public var path: String?

    /// A section's case name and scale: `pin@2x` is pin at 2, `pin` and
    /// `user@home` (no whole scale after the last `@`) are cases at every scale.
    public static func section(_ section: String) -> (name: String, scale: Int?) {
        guard let at = section.lastIndex(of: "@"), at != section.startIndex else { return (section, nil) }
        let suffix = section[section.index(after: at)...]
        guard suffix.hasSuffix("x"), suffix.dropLast().allSatisfy({ $0.isASCII && $0.isWholeNumber }), let scale = Int(suffix.dropLast()), scale >= 1 else {
            return (section, nil)
        }
        return (String(section[..<at]), scale)
    }

    /// The settings that apply to `name` at `scale`: [name@Sx], else [name], else the defaults.
    public func tolerance(for name: String, scale: Int) -> Tolerance {
        sections["\(name)@\(scale)x"] ?? sections[name] ?? defaults
    }

    /// Defaults for a folder without golden.conf.
    public init(defaultsFor suiteFolder: String) {
        inputsFolder = suiteFolder
    }

    /// Reads `suiteFolder/golden.conf` if it exists, else the defaults.
    public init(readingSuite suiteFolder: String, fileManager: FileManager = .default) throws(GoldenError) {
        let path = PathName.appending(GoldenConfiguration.fileName, to: suiteFolder)
        guard fileManager.fileExists(atPath: path) else {
            self.init(defaultsFor: suiteFolder)
            return
        }
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, limit: GoldenConfiguration.maximumFileBytes) } catch {
            let problem: String
            switch error {
            case .folder: problem = "a folder, not a text file"
            case .noSuchFile: problem = "no such file"
            case .tooLarge(let size): problem = "the file is \(size.map(String.init) ?? "over \(GoldenConfiguration.maximumFileBytes)") bytes; "
                + "at most \(GoldenConfiguration.maximumFileBytes) are read"
            case .unreadable(let reason): problem = "cannot read the file: \(reason)"
            case .notRegularFile(let kind): problem = "\(kind), not a file"
            }
            throw .configuration(path: path, line: 0, problem: problem)
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            // The line with the bad bytes (no UTF-8 sequence spans a newline).
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let line = (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
            throw .configuration(path: path, line: line, problem: "not UTF-8 text (golden.conf is read as UTF-8)")
        }
        // A byte-order mark (editors that save "UTF-8 with BOM") is not part of the first line.
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        try self.init(parsing: text, path: path, suiteFolder: suiteFolder)
    }

    /// Parses the text of a golden.conf at `path` in `suiteFolder`.
    public init(parsing text: String, path: String, suiteFolder: String) throws(GoldenError) {
        self.init(defaultsFor: suiteFolder)
        self.path = path
        var section: String? = nil
        var current = defaults
        var explicitSections: [String: Tolerance] = [:]
        func finishSection() {
            if let section { explicitSections[section] = current } else { defaults = current }
        }
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = offset + 1
            func problem(_ text: String) -> GoldenError { .configuration(path: path, line: lineNumber, problem: text) }
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("[") {
                guard trimmed.hasSuffix("]"), trimmed.count > 2 else { throw problem("a section is [name] or [name@2x]") }
                finishSection()
                let name = String(trimmed.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                if sectionLines[name] == nil { sectionLines[name] = lineNumber }
                // A section starts from what [name] already says when it is [name@Sx].
                let base = GoldenConfiguration.section(name).name
                current = explicitSections[name] ?? (name != base ? explicitSections[base] : nil) ?? defaults
                section = name
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { throw problem("expected 'key = value', got '\(trimmed)'") }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            func number(_ range: ClosedRange<Double>) throws(GoldenError) -> Double {
                guard let number = Double(value), number.isFinite, range.contains(number) else {
                    throw problem("\(key) '\(value)' is not a number in \(range.lowerBound)...\(range.upperBound)")
                }
                return number
            }
            switch key {
            case "inputs", "cases", "scales":
                guard section == nil else { throw problem("\(key) belongs before the first [section]") }
                switch key {
                case "inputs":
                    inputsFolder = value.hasPrefix("/") ? value : PathName.appending(value, to: suiteFolder)
                case "cases":
                    caseNames = value.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                default:
                    let scales = value.split(whereSeparator: { $0 == " " || $0 == "," }).map { Int($0) }
                    guard !scales.isEmpty, scales.allSatisfy({ $0 != nil && (1...8).contains($0!) }) else {
                        throw problem("scales '\(value)' must be whole numbers 1...8, e.g. 'scales = 1 2 3'")
                    }
                    self.scales = scales.map { $0! }
                }
            case "threshold": current.options.threshold = try number(0...1)
            case "include-aa":
                guard let flag = ["true": true, "false": false, "yes": true, "no": false][value] else {
                    throw problem("include-aa '\(value)' is not true or false")
                }
                current.options.includeAntiAliasing = flag
            case "max-diff-pixels":
                guard let count = Int(value), count >= 0 else { throw problem("max-diff-pixels '\(value)' is not a whole number ≥ 0") }
                current.tolerance = .pixels(count)
            case "max-diff-percent": current.tolerance = .percent(try number(0...100))
            case "pixelmatch":
                guard let semantics = DiffOptions.Semantics(rawValue: value) else { throw problem("pixelmatch '\(value)' is not 5 or 7") }
                current.options.semantics = semantics
            case "reason": current.reason = value
            default:
                throw problem("unknown key '\(key)' (inputs, cases, scales, threshold, include-aa, max-diff-pixels, "
                    + "max-diff-percent, pixelmatch, reason)")
            }
        }
        finishSection()
        sections = explicitSections
    }
}
