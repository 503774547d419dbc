import Foundation
import PinmintDiff
import PinmintGeometry
import PinmintRaster
import Testing
#if canImport(XCTest)
import XCTest
#endif

// One assertion for Swift Testing and XCTest alike. A failure is reported at
// the call: to Swift Testing (`Issue.record` at the call's `SourceLocation`,
// with the artifacts attached) when a Swift Testing test is running, else to
// XCTest (`XCTFail` at `file:line:`). Telling the two apart at run time
// (`Test.current`) and taking the location as plain literals (#fileID,
// #filePath, #line, #column) is how pointfreeco/swift-snapshot-testing
// reports its failures. A `sourceLocation: SourceLocation = #_sourceLocation`
// default does not do for both (tried with Swift 6.3.1): the macro must be
// visible where the function is called, so an XCTest file without `import
// Testing` does not compile, and beside a `file:line:` overload it is the
// one chosen for XCTest calls too, whose failures Swift Testing then drops
// without a word (the XCTest test passed). Helpers that forward their own
// caller's location pass `sourceLocation:` explicitly (the last two forms).

/// Checks a rendering against its golden PNG and reports a failure at the
/// call, in Swift Testing or XCTest.
///
///     import PinmintTesting
///
///     @Test func priceTag() throws {
///         let canvas = try renderPriceTag(scale: 2)
///         assertImageMatchesGolden(canvas, named: "price-tag@2x")   // Goldens/<this file>/price-tag@2x.png
///     }
///
/// The golden image is `DIRECTORY/NAME.png`. Without `directory` it is
/// `Goldens/FILE/` beside the calling test file (FILE: its name without
/// `.swift`); a relative `directory` is taken from the calling test file's
/// folder too, never from the working directory. Exclude the folder from the
/// test target (`exclude: ["Goldens"]`) so that SwiftPM does not warn about it.
///
/// **Record mode**: run the tests with `PINMINT_RECORD=1` (or pass
/// `record: true`) to write the golden images. Recording always fails the
/// test, saying what it wrote, so a run in record mode is never green; look
/// at the images, then run again without it.
///
/// **On a failure** `NAME.actual.png` and `NAME.diff.png` (expected | actual |
/// diff side by side: red differs, yellow within the tolerance) go to
/// `DIRECTORY/.golden-failures/` (ignore it in version control), and Swift
/// Testing also attaches them to the issue. A match removes a name's stale
/// artifacts and the folder once empty: a passing run leaves nothing behind.
/// A missing golden fails (and writes the actual image) until it is recorded.
///
/// Call it from a test (Swift Testing or XCTest), on the test's own task:
/// elsewhere there is no test to fail.
///
/// - Parameters:
///   - canvas: the rendering (premultiplied; compared as the straight 8-bit
///     pixels a PNG would store).
///   - name: file name without `.png`; kebab-case with `@2x` for scales
///     (the recorded PNG's pHYs says the scale). Letters, digits, `-_.@`.
///   - directory: golden folder, absolute or relative to the calling test file's folder.
///   - tolerance: see `GoldenTolerance`: pixels (count or percent, as pixelmatch counts them),
///     largest and mean channel difference. Default: pixelmatch counts no differing pixel.
///   - options: pixelmatch's options for the pixel count (default threshold 0.1,
///     anti-aliased pixels not counted).
///   - record: true records, false never records (a reference another tool
///     made), nil (the default) reads `PINMINT_RECORD=1` from the environment.
///   - fileID, file, line, column: where the failure is reported (default:
///     the call); `file` also locates the golden folder.
public func assertImageMatchesGolden(
    _ canvas: Canvas, named name: String, directory: String? = nil,
    tolerance: GoldenTolerance = GoldenTolerance(), options: DiffOptions = DiffOptions(), record: Bool? = nil,
    fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    checkGolden(RGBA8Image(canvas), named: name, directory: directory, tolerance: tolerance, options: options,
                record: record, at: .literals(fileID: fileID, file: file, line: line, column: column))
}

/// The same check for an image already in straight RGBA8 (e.g. a decoded PNG);
/// see the `Canvas` form for every parameter.
public func assertImageMatchesGolden(
    _ image: RGBA8Image, named name: String, directory: String? = nil,
    tolerance: GoldenTolerance = GoldenTolerance(), options: DiffOptions = DiffOptions(), record: Bool? = nil,
    fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    checkGolden(image, named: name, directory: directory, tolerance: tolerance, options: options, record: record,
                at: .literals(fileID: fileID, file: file, line: line, column: column))
}

/// The check with Swift Testing's location of the failure given, for a
/// helper that takes `sourceLocation: SourceLocation = #_sourceLocation`
/// from its own callers and passes it on; `sourceLocation.filePath` locates
/// the golden folder. See the first form for the other parameters.
public func assertImageMatchesGolden(
    _ canvas: Canvas, named name: String, directory: String? = nil,
    tolerance: GoldenTolerance = GoldenTolerance(), options: DiffOptions = DiffOptions(), record: Bool? = nil,
    sourceLocation: SourceLocation
) {
    checkGolden(RGBA8Image(canvas), named: name, directory: directory, tolerance: tolerance, options: options,
                record: record, at: .swiftTesting(sourceLocation))
}

/// The `RGBA8Image` form of the check with Swift Testing's `sourceLocation` given.
public func assertImageMatchesGolden(
    _ image: RGBA8Image, named name: String, directory: String? = nil,
    tolerance: GoldenTolerance = GoldenTolerance(), options: DiffOptions = DiffOptions(), record: Bool? = nil,
    sourceLocation: SourceLocation
) {
    checkGolden(image, named: name, directory: directory, tolerance: tolerance, options: options, record: record,
                at: .swiftTesting(sourceLocation))
}

/// Where a failure is reported.
enum GoldenCallSite {
    /// The call's literals: both frameworks can report there.
    case literals(fileID: StaticString, file: StaticString, line: UInt, column: UInt)
    /// A Swift Testing location passed on by a helper.
    case swiftTesting(SourceLocation)

    var filePath: String {
        switch self {
        case .literals(_, let file, _, _): return "\(file)"
        case .swiftTesting(let location): return location.filePath
        }
    }

    var sourceLocation: SourceLocation {
        switch self {
        case let .literals(fileID, file, line, column):
            return SourceLocation(fileID: "\(fileID)", filePath: "\(file)", line: Int(line), column: Int(column))
        case .swiftTesting(let location): return location
        }
    }
}

/// Finds the golden folder from the call, checks (or records), and reports
/// any failure, or a check that could not be made, at the call.
func checkGolden(_ image: RGBA8Image, named name: String, directory: String?, tolerance: GoldenTolerance,
                 options: DiffOptions, record: Bool?, at callSite: GoldenCallSite) {
    let folder = goldenFolder(directory, calledFrom: callSite.filePath)
    do {
        try GoldenSnapshot.check(image, named: name, directory: folder, tolerance: tolerance, options: options,
                                 record: record)
    } catch let mismatch as GoldenMismatch {
        let attachments = [mismatch.actualPath, mismatch.diffPath].compactMap { $0 }
        reportGoldenFailure(mismatch.description, attaching: attachments, at: callSite)
    } catch {
        reportGoldenFailure("\(name): cannot check the golden image in \(folder): \(error)", attaching: [], at: callSite)
    }
}

/// The golden folder: `Goldens/FILE` beside the test file when `directory` is
/// nil, `directory` itself when absolute, else `directory` from the test file's folder.
func goldenFolder(_ directory: String?, calledFrom testFile: String) -> String {
    let testFolder = PathName.folder(of: testFile)
    guard let directory else {
        let stem = PathName.deletingExtension(PathName.lastComponent(of: testFile))
        return PathName.appending(stem, to: PathName.appending("Goldens", to: testFolder))
    }
    if directory.hasPrefix("/") { return directory }
    return URL(fileURLWithPath: PathName.appending(directory, to: testFolder)).standardizedFileURL.path
}

/// Reports a failure to the test framework that runs the calling test.
func reportGoldenFailure(_ message: String, attaching artifacts: [String], at callSite: GoldenCallSite) {
    if Test.current != nil {
        let sourceLocation = callSite.sourceLocation
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        for path in artifacts {
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            Attachment.record(Array(bytes), named: PathName.lastComponent(of: path), sourceLocation: sourceLocation)
        }
        return
    }
    #if canImport(XCTest)
    switch callSite {
    case let .literals(_, file, line, _):
        XCTFail(message, file: file, line: line)
    case .swiftTesting(let location):
        XCTFail("\(location.filePath):\(location.line): \(message)")
    }
    #else
    let location = callSite.sourceLocation
    fatalError("\(location.filePath):\(location.line): \(message)")
    #endif
}
