import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster

/// Why `assertImageMatchesGolden` failed; the description says what to look at.
public struct GoldenMismatch: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// More pixels differ than the tolerance allows.
        case pixelsDiffer(diffPixels: Int, diffPercent: Double)
        /// The golden image has another size (pixels).
        case sizesDiffer(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
        /// There is no golden image yet.
        case missing
        /// Record mode wrote the golden image (the test fails so that record mode is never left on).
        case recorded
    }

    public var kind: Kind
    /// The golden image's path.
    public var goldenPath: String
    /// Failure artifacts written: the rendering, and the diff image when the sizes match.
    public var actualPath: String?
    public var diffPath: String?
    public var tolerance: DiffTolerance

    public var description: String {
        let name = PathName.lastComponent(of: goldenPath)
        var text: String
        switch kind {
        case let .pixelsDiffer(diffPixels, diffPercent):
            text = "\(name): \(diffPixels) pixel\(diffPixels == 1 ? "" : "s") differ (\(formatPercent(diffPercent))%), "
                + "over the tolerance (\(tolerance))"
        case let .sizesDiffer(expectedWidth, expectedHeight, actualWidth, actualHeight):
            text = "\(name): the golden image is \(expectedWidth)x\(expectedHeight), the rendering \(actualWidth)x\(actualHeight)"
        case .missing:
            text = "\(name): no golden image at \(goldenPath); run with \(GoldenSnapshot.recordVariable)=1 to record it"
        case .recorded:
            return "recorded \(goldenPath); unset \(GoldenSnapshot.recordVariable) to check against it"
        }
        if let actualPath { text += "; actual: \(actualPath)" }
        if let diffPath { text += "; diff: \(diffPath)" }
        if kind != .missing { text += " (if the change is intended: \(GoldenSnapshot.recordVariable)=1)" }
        return text
    }
}

/// Settings shared by every `assertImageMatchesGolden` call.
public enum GoldenSnapshot {
    /// The environment variable that turns record mode on when set to 1 (never in CI).
    public static let recordVariable = "PINMINT_RECORD"
    /// Folder name, inside the golden folder, for failure artifacts (ignored by the project's .gitignore).
    public static let failureFolderName = ".golden-failures"

    /// True when `PINMINT_RECORD=1` is in the environment.
    public static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }
}

/// Checks a rendering against the golden PNG `directory/named.png`; throws
/// when it does not match, which fails the calling Swift Testing or XCTest test.
///
///     @Test func pinMarker() throws {
///         let canvas = try drawPin(scale: 2)
///         try assertImageMatchesGolden(canvas, named: "pin@2x", directory: goldenFolder)
///     }
///
/// - Parameters:
///   - named: file name without `.png`; kebab-case with `@2x` for scales is the convention.
///   - directory: folder of the golden images (created in record mode).
///   - tolerance: how many pixels may differ (default none).
///   - options: pixelmatch's options (default threshold 0.1, anti-aliasing not counted).
///   - record: write the golden instead of checking it; nil (the default)
///     reads `PINMINT_RECORD=1` from the environment. Recording throws
///     `GoldenMismatch` with `.recorded`, so the test run is never green while recording.
///   - failureDirectory: where `NAME.actual.png` and `NAME.diff.png` go on a
///     failure (default `directory/.golden-failures`); stale artifacts of the name are removed on success.
/// - Throws: `GoldenMismatch` (pixels or sizes differ, golden missing, recorded);
///   `PNGError` when the golden cannot be read or a file cannot be written.
public func assertImageMatchesGolden(_ canvas: Canvas, named name: String, directory: String,
                                     tolerance: DiffTolerance = .exact, options: DiffOptions = DiffOptions(),
                                     record: Bool? = nil, failureDirectory: String? = nil) throws {
    try assertImageMatchesGolden(RGBA8Image(canvas), named: name, directory: directory, tolerance: tolerance,
                                 options: options, record: record, failureDirectory: failureDirectory)
}

/// The same check for an image already in straight RGBA8 (e.g. a decoded PNG).
public func assertImageMatchesGolden(_ actual: RGBA8Image, named name: String, directory: String,
                                     tolerance: DiffTolerance = .exact, options: DiffOptions = DiffOptions(),
                                     record: Bool? = nil, failureDirectory: String? = nil) throws {
    let goldenPath = PathName.appending(name + ".png", to: directory)
    let failures = failureDirectory ?? PathName.appending(GoldenSnapshot.failureFolderName, to: directory)
    let actualPath = PathName.appending(name + ".actual.png", to: failures)
    let diffPath = PathName.appending(name + ".diff.png", to: failures)
    let scale = name.firstMatch(of: /@(\d+)x$/).flatMap { Double($0.1) } ?? 1
    var mismatch = GoldenMismatch(kind: .missing, goldenPath: goldenPath, tolerance: tolerance)

    if record ?? GoldenSnapshot.isRecording {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try PNGEncoder.writeAtomically(try actual.pngData(pixelRatio: scale, mode: .default), to: goldenPath)
        mismatch.kind = .recorded
        throw mismatch
    }
    func writeArtifacts(diff: RGBA8Image?) throws {
        try FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
        try PNGEncoder.writeAtomically(try actual.pngData(pixelRatio: scale), to: actualPath)
        mismatch.actualPath = actualPath
        if let diff {
            try PNGEncoder.writeAtomically(try diff.pngData(pixelRatio: scale), to: diffPath)
            mismatch.diffPath = diffPath
        }
    }
    guard FileManager.default.fileExists(atPath: goldenPath) else {
        try writeArtifacts(diff: nil)
        throw mismatch
    }
    let expected = try RGBA8Image(contentsOfFile: goldenPath)
    guard expected.width == actual.width, expected.height == actual.height else {
        mismatch.kind = .sizesDiffer(expectedWidth: expected.width, expectedHeight: expected.height,
                                     actualWidth: actual.width, actualHeight: actual.height)
        try writeArtifacts(diff: nil)
        throw mismatch
    }
    let result = try PixelDiff.compare(expected: expected, actual: actual, options: options, makesDiffImage: true)
    guard result.isWithin(tolerance) else {
        mismatch.kind = .pixelsDiffer(diffPixels: result.diffPixels, diffPercent: result.diffPercent)
        try writeArtifacts(diff: result.diffImage)
        throw mismatch
    }
    for stale in [actualPath, diffPath] where FileManager.default.fileExists(atPath: stale) {
        try? FileManager.default.removeItem(atPath: stale)
    }
}
