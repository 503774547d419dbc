import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster

/// What a golden check measured: pixelmatch's count when the tolerance limits
/// differing pixels, the channel differences when it limits channels.
public struct GoldenMeasurement: Sendable, Equatable, CustomStringConvertible {
    /// Pixels pixelmatch counts as differing (nil when the tolerance sets no pixel limit).
    public var diffPixels: Int?
    /// 100 × diffPixels / all pixels.
    public var diffPercent: Double?
    /// The largest difference of one channel of one pixel, 8-bit units (nil when no channel limit is set).
    public var channelMaximum: Double?
    /// The mean channel difference, 8-bit units (nil when no channel limit is set).
    public var channelMean: Double?

    /// A measurement of the given numbers (nil: not measured).
    public init(diffPixels: Int? = nil, diffPercent: Double? = nil, channelMaximum: Double? = nil, channelMean: Double? = nil) {
        self.diffPixels = diffPixels
        self.diffPercent = diffPercent
        self.channelMaximum = channelMaximum
        self.channelMean = channelMean
    }

    /// "14 pixels differ (0.31%), largest channel difference 37, mean 0.0123".
    public var description: String {
        var parts: [String] = []
        if let diffPixels, let diffPercent {
            parts.append("\(diffPixels) pixel\(diffPixels == 1 ? "" : "s") differ (\(formatPercent(diffPercent))%)")
        }
        if let channelMaximum, let channelMean {
            parts.append("largest channel difference \(formatLevel(channelMaximum)), mean \(formatLevel(channelMean))")
        }
        return parts.joined(separator: ", ")
    }

    /// The limits of `tolerance` this measurement is over, one phrase each (empty: it passes).
    public func violations(of tolerance: GoldenTolerance) -> [String] {
        var violations: [String] = []
        if let limit = tolerance.differingPixels, let diffPixels, let diffPercent,
           !limit.allows(diffPixels: diffPixels, diffPercent: diffPercent) {
            violations.append("\(diffPixels) pixel\(diffPixels == 1 ? "" : "s") differ (\(formatPercent(diffPercent))%), \(limit)")
        }
        if let limit = tolerance.channelMaximum, let channelMaximum, channelMaximum > limit {
            violations.append("a channel differs by \(formatLevel(channelMaximum)), at most \(formatLevel(limit))")
        }
        if let limit = tolerance.channelMean, let channelMean, channelMean > limit {
            violations.append("the mean channel difference is \(formatLevel(channelMean)), at most \(formatLevel(limit))")
        }
        return violations
    }
}

/// Why a golden check failed; the description says what differs, where the
/// files are and how to accept the change.
public struct GoldenMismatch: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is.
    public enum Kind: Sendable, Equatable {
        /// The rendering is over some limit of the tolerance (`measurement` says by how much).
        case differs
        /// The golden image has another size (pixels).
        case sizesDiffer(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
        /// There is no golden image yet.
        case missing
        /// Record mode wrote the golden image; the check fails so that record mode is never left on unnoticed.
        case recorded
    }

    /// Which of the four failures this is.
    public var kind: Kind
    /// The golden image's path.
    public var goldenPath: String
    /// What was measured (for `.differs`, and when the sizes matched).
    public var measurement: GoldenMeasurement?
    /// The tolerance checked against.
    public var tolerance: GoldenTolerance
    /// Failure artifacts written: the rendering (`NAME.actual.png`), and,
    /// when the sizes match, expected | actual | diff side by side (`NAME.diff.png`).
    public var actualPath: String?
    /// The side-by-side diff's path (`NAME.diff.png`); nil when there is
    /// none: the sizes differ, the golden image is missing, or it was recorded.
    public var diffPath: String?

    /// One line for a test failure: what differs and by how much against
    /// which tolerance, the golden image's path, the artifacts' paths, and
    /// the record-mode command that accepts an intended change.
    public var description: String {
        let name = PathName.lastComponent(of: goldenPath)
        var text: String
        switch kind {
        case .differs:
            let violations = measurement?.violations(of: tolerance) ?? []
            text = "\(name) does not match its golden image: " + violations.joined(separator: "; ")
                + " (tolerance: \(tolerance)); golden: \(goldenPath)"
        case let .sizesDiffer(expectedWidth, expectedHeight, actualWidth, actualHeight):
            text = "\(name): the golden image is \(expectedWidth)x\(expectedHeight), the rendering "
                + "\(actualWidth)x\(actualHeight); golden: \(goldenPath)"
        case .missing:
            text = "\(name): no golden image at \(goldenPath); run the test with \(GoldenSnapshot.recordVariable)=1 to record it"
        case .recorded:
            return "recorded \(goldenPath) (record mode: \(GoldenSnapshot.recordVariable)=1 or record: true); look at it, "
                + "then run the test without record mode to check against it"
        }
        if let actualPath { text += "; actual: \(actualPath)" }
        if let diffPath { text += "; expected | actual | diff: \(diffPath)" }
        if kind != .missing { text += "; if the change is intended, run the test with \(GoldenSnapshot.recordVariable)=1" }
        return text
    }
}

/// Golden-image checks without a test framework: the work behind
/// `assertImageMatchesGolden` (module PinmintTesting), for tools and scripts.
public enum GoldenSnapshot {
    /// The environment variable that turns record mode on when set to 1 (never in CI).
    public static let recordVariable = "PINMINT_RECORD"
    /// Folder name, inside the golden folder, for failure artifacts (ignore it in
    /// version control; it is removed again once it is empty).
    public static let failureFolderName = ".golden-failures"

    /// True when `PINMINT_RECORD=1` is in the environment.
    public static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    /// Checks `actual` against the golden PNG `directory/NAME.png`, or records it.
    ///
    /// On a mismatch, `NAME.actual.png` and `NAME.diff.png` (expected |
    /// actual | diff side by side) are written to `failureDirectory`; on a
    /// match, stale ones of this name are removed, and the failure folder too
    /// once it is empty, so that a passing run leaves nothing behind.
    ///
    /// - Parameters:
    ///   - name: the file name without `.png`: kebab-case with `@2x` for
    ///     scales is the convention (the scale goes into the recorded PNG's pHYs).
    ///     Letters, digits, `-`, `_`, `.`, `@`; no `/`, not starting with `.`.
    ///   - directory: folder of the golden images (created when recording).
    ///   - tolerance: see `GoldenTolerance` (default: pixelmatch counts no differing pixel).
    ///   - options: pixelmatch's options for the pixel count (default threshold 0.1,
    ///     anti-aliasing not counted).
    ///   - record: true writes the golden instead of checking it; false never
    ///     writes it (for references another tool made); nil (the default) reads `PINMINT_RECORD=1`.
    ///   - failureDirectory: where the artifacts go (default `directory/.golden-failures`).
    /// - Returns: what was measured, when the rendering matches.
    /// - Throws: `GoldenMismatch` (differs, sizes differ, golden missing,
    ///   recorded); `GoldenError.badInput` for a malformed name or tolerance;
    ///   `PNGError` when the golden cannot be read or a file cannot be written.
    @discardableResult
    public static func check(_ actual: RGBA8Image, named name: String, directory: String,
                             tolerance: GoldenTolerance = GoldenTolerance(), options: DiffOptions = DiffOptions(),
                             record: Bool? = nil, failureDirectory: String? = nil) throws -> GoldenMeasurement {
        guard !name.isEmpty, !name.hasPrefix("."), name.unicodeScalars.allSatisfy({ scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.@".unicodeScalars.contains(scalar))
        }) else {
            throw GoldenError.badInput(message: "golden name '\(name)': use letters, digits, '-', '_', '.', '@' "
                + "(no '/', not starting with '.'), e.g. 'price-tag@2x'")
        }
        if let problem = tolerance.problem { throw GoldenError.badInput(message: "\(name): tolerance: \(problem)") }
        let goldenPath = PathName.appending(name + ".png", to: directory)
        let failures = failureDirectory ?? PathName.appending(failureFolderName, to: directory)
        let actualPath = PathName.appending(name + ".actual.png", to: failures)
        let diffPath = PathName.appending(name + ".diff.png", to: failures)
        let scale = name.firstMatch(of: /@(\d+)x$/).flatMap { Double($0.1) }.map { max(1, min(8, $0)) } ?? 1
        var mismatch = GoldenMismatch(kind: .missing, goldenPath: goldenPath, tolerance: tolerance)

        func writeArtifacts(expected: RGBA8Image?, diff: RGBA8Image?) throws {
            var files = [(bytes: try actual.pngData(pixelRatio: scale), path: actualPath)]
            if let expected, let diff {
                files.append((try sideBySide([expected, actual, diff]).pngData(pixelRatio: scale), diffPath))
            }
            // Another check may remove the folder between its creation and the
            // write, when it finds it empty (`removeStaleArtifacts`): try again.
            for attempt in 1...3 {
                do {
                    try FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
                    try PNGEncoder.writeAtomically(files)
                    break
                } catch where attempt < 3 {
                    continue
                }
            }
            mismatch.actualPath = actualPath
            if files.count > 1 { mismatch.diffPath = diffPath }
        }

        if record ?? isRecording {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try PNGEncoder.writeAtomically(try actual.pngData(pixelRatio: scale, mode: .default), to: goldenPath)
            removeStaleArtifacts([actualPath, diffPath], folder: failures)
            mismatch.kind = .recorded
            throw mismatch
        }
        guard FileManager.default.fileExists(atPath: goldenPath) else {
            try writeArtifacts(expected: nil, diff: nil)
            throw mismatch
        }
        let expected = try RGBA8Image(contentsOfFile: goldenPath)
        guard expected.width == actual.width, expected.height == actual.height else {
            mismatch.kind = .sizesDiffer(expectedWidth: expected.width, expectedHeight: expected.height,
                                         actualWidth: actual.width, actualHeight: actual.height)
            try writeArtifacts(expected: nil, diff: nil)
            throw mismatch
        }
        var measurement = GoldenMeasurement()
        var pixelDiffImage: RGBA8Image?, channelDiffImage: RGBA8Image?
        var pixelCountFailed = false
        if let limit = tolerance.differingPixels {
            let result = try PixelDiff.compare(expected: expected, actual: actual, options: options, makesDiffImage: true)
            measurement.diffPixels = result.diffPixels
            measurement.diffPercent = result.diffPercent
            pixelDiffImage = result.diffImage
            pixelCountFailed = !result.isWithin(limit)
        }
        if tolerance.checksChannels {
            let channels = ChannelDifference.measure(expected: expected, actual: actual, alpha: tolerance.channelAlpha,
                                                     limit: tolerance.channelMaximum ?? 0, makesDiffImage: true)
            measurement.channelMaximum = channels.maximum
            measurement.channelMean = channels.mean
            channelDiffImage = channels.diffImage
        }
        mismatch.measurement = measurement
        guard measurement.violations(of: tolerance).isEmpty else {
            // The diff image of the limit that failed: pixelmatch's when the count is over.
            mismatch.kind = .differs
            try writeArtifacts(expected: expected, diff: pixelCountFailed ? pixelDiffImage : channelDiffImage ?? pixelDiffImage)
            throw mismatch
        }
        removeStaleArtifacts([actualPath, diffPath], folder: failures)
        return measurement
    }

    /// Removes a name's old artifacts, then the failure folder if that left it
    /// empty (`rmdir` refuses a folder that is not, so another check's files stay).
    static func removeStaleArtifacts(_ paths: [String], folder: String) {
        for path in paths where FileManager.default.fileExists(atPath: path) {
            try? FileManager.default.removeItem(atPath: path)
        }
        _ = rmdir(folder)
    }

    /// Images of one height side by side, left to right.
    static func sideBySide(_ images: [RGBA8Image]) -> RGBA8Image {
        let height = images.map(\.height).max() ?? 0
        let width = images.reduce(0) { $0 + $1.width }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var left = 0
        for image in images {
            for y in 0..<image.height {
                let source = y * image.width * 4
                let target = (y * width + left) * 4
                pixels.replaceSubrange(target..<(target + image.width * 4), with: image.pixels[source..<(source + image.width * 4)])
            }
            left += image.width
        }
        return RGBA8Image(width: width, height: height, pixels: pixels)
    }
}
