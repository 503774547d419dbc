import Foundation
import PinmintDiff
import PinmintRaster
import PinmintSVG
import PinmintTesting
import Testing

/// A 10 × 10 canvas with a blue square whose left edge is at `offset`.
func squareCanvas(offset: Double = 2, color: String = "#1E88E5", opacity: Double = 1) throws -> Canvas {
    try SVGDocument(data: Array("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect x='\(offset)' y='2' width='6' height='6' fill='\(color)' fill-opacity='\(opacity)'/></svg>".utf8)).render(scale: 1)
}

/// The files and folders under `folder`, relative to it, sorted.
func filesUnder(_ folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
}

/// `GoldenSnapshot.check`: the work behind `assertImageMatchesGolden`.
struct GoldenSnapshotTests {
    @Test func recordThenMatchLeavesOnlyTheGolden() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "square@2x", directory: folder.path, record: true)
        } throws: { error in
            (error as? GoldenMismatch)?.kind == .recorded && "\(error)".contains("recorded \(folder.path)/square@2x.png")
        }
        try GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "square@2x", directory: folder.path, record: false)
        #expect(filesUnder(folder) == ["square@2x.png"])
    }

    @Test func mismatchWritesActualAndSideBySideThenAMatchRemovesThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try? GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "square", directory: folder.path, record: true)
        var caught: GoldenMismatch?
        do {
            try GoldenSnapshot.check(RGBA8Image(try squareCanvas(offset: 3)), named: "square", directory: folder.path, record: false)
        } catch let error as GoldenMismatch {
            caught = error
        }
        let mismatch = try #require(caught)
        #expect(mismatch.kind == .differs)
        let count = try #require(mismatch.measurement?.diffPixels)
        #expect(count >= 6)
        #expect(filesUnder(folder) == [".golden-failures", ".golden-failures/square.actual.png", ".golden-failures/square.diff.png",
                                    "square.png"])
        let sideBySide = try RGBA8Image(contentsOfFile: try #require(mismatch.diffPath))
        #expect(sideBySide.width == 30 && sideBySide.height == 10)
        #expect(mismatch.description.contains("square.diff.png") && mismatch.description.contains("PINMINT_RECORD=1"))
        // Within a tolerance it passes, and the artifacts and their folder go.
        try GoldenSnapshot.check(RGBA8Image(try squareCanvas(offset: 3)), named: "square", directory: folder.path,
                                 tolerance: .pixels(count), record: false)
        #expect(filesUnder(folder) == ["square.png"])
    }

    @Test func missingGoldenFailsAndSaysHowToRecord() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "new", directory: folder.path, record: false)
        } throws: { error in
            (error as? GoldenMismatch)?.kind == .missing && "\(error)".contains("PINMINT_RECORD=1")
        }
        #expect(filesUnder(folder) == [".golden-failures", ".golden-failures/new.actual.png"])
    }

    @Test func sizeChangeFails() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try? GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "square", directory: folder.path, record: true)
        #expect {
            try GoldenSnapshot.check(RGBA8Image(try Canvas(width: 11, height: 10)), named: "square", directory: folder.path,
                                     record: false)
        } throws: { error in
            (error as? GoldenMismatch)?.kind == .sizesDiffer(expectedWidth: 10, expectedHeight: 10, actualWidth: 11, actualHeight: 10)
        }
    }

    /// Each kind of limit, on a change it must catch and one it must let through.
    static let limits: [(name: String, actual: @Sendable () throws -> Canvas, tolerance: GoldenTolerance, passes: Bool)] = [
        ("identical passes itself", { try squareCanvas() }, .identical, true),
        ("one level fails identical", { try squareCanvas(color: "#1E88E6") }, .identical, false),
        ("one level is within channels 1", { try squareCanvas(color: "#1E88E6") }, .channels(maximum: 1), true),
        ("one level is invisible to pixelmatch", { try squareCanvas(color: "#1E88E6") }, GoldenTolerance(), true),
        ("a moved edge is over channels 2", { try squareCanvas(offset: 3) }, .channels(maximum: 2), false),
        ("a moved edge is within channels 255", { try squareCanvas(offset: 3) }, .channels(maximum: 255), true),
        ("12 of 100 pixels are over 5 percent", { try squareCanvas(offset: 3) }, .percent(5), false),
        ("12 of 100 pixels are within 12 percent", { try squareCanvas(offset: 3) }, .percent(12), true),
        ("a moved edge is over mean 1", { try squareCanvas(offset: 3) }, .channels(mean: 1), false),
        ("a moved edge is within mean 100", { try squareCanvas(offset: 3) }, .channels(mean: 100), true),
        ("pixels and channels: both must hold", { try squareCanvas(offset: 3) },
         GoldenTolerance(differingPixels: .pixels(100), channelMaximum: 2), false),
        // Colour under alpha 1/255: 200 levels straight, under 1 premultiplied.
        ("a colour change under alpha 1/255 is over straight 2", { try squareCanvas(color: "#C81E1E", opacity: 1 / 255) },
         .channels(maximum: 2), false),
        ("a colour change under alpha 1/255 is within premultiplied 2", { try squareCanvas(color: "#C81E1E", opacity: 1 / 255) },
         .channels(maximum: 2, alpha: .premultiplied), true),
    ]

    @Test(arguments: limits.indices)
    func limit(_ index: Int) throws {
        let limit = GoldenSnapshotTests.limits[index]
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = index >= 11 ? try squareCanvas(color: "#1E88E5", opacity: 1 / 255) : try squareCanvas()
        _ = try? GoldenSnapshot.check(RGBA8Image(golden), named: "case", directory: folder.path, record: true)
        var mismatch: GoldenMismatch?
        do {
            try GoldenSnapshot.check(RGBA8Image(try limit.actual()), named: "case", directory: folder.path,
                                     tolerance: limit.tolerance, record: false)
        } catch let error as GoldenMismatch {
            mismatch = error
        }
        #expect((mismatch == nil) == limit.passes, "\(limit.name): \(mismatch.map { "\($0)" } ?? "passed")")
        if let mismatch { #expect(mismatch.kind == .differs, "\(limit.name): \(mismatch)") }
    }

    @Test(arguments: ["", "../escape", ".hidden", "a/b", "price tag"])
    func malformedNameIsRefused(_ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: GoldenError.self) {
            try GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: name, directory: folder.path, record: true)
        }
        #expect(filesUnder(folder).isEmpty)
    }

    @Test(arguments: [GoldenTolerance.pixels(-1), .percent(101), .channels(maximum: -1), .channels(mean: .nan), .channels(),
                      GoldenTolerance(differingPixels: nil)])
    func malformedToleranceIsRefused(_ tolerance: GoldenTolerance) throws {
        #expect(tolerance.problem != nil)
        #expect(throws: GoldenError.self) {
            try GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "x", directory: "/nonexistent", tolerance: tolerance)
        }
    }

    /// The channel measure agrees with the reference gate's to the last bit.
    @Test func premultipliedChannelsAreReferenceDifference() throws {
        let (expected, actual) = try imagePair("noise-semi-transparent")
        let channels = ChannelDifference.measure(expected: expected, actual: actual, alpha: .premultiplied)
        let reference = ReferenceDifference(actual, expected)
        #expect(channels.maximum == reference.maximum && channels.mean == reference.mean)
    }
}

/// `assertImageMatchesGolden` under Swift Testing: failures at the call, the
/// golden folder found from this file, record mode never green, nothing left
/// behind by a pass. (GoldenAssertionXCTests checks the XCTest side.)
struct GoldenAssertionTests {
    /// This file's folder.
    static let testFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test func failureIsReportedAtTheCall() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let callLine = #line + 2
        try withKnownIssue {
            assertImageMatchesGolden(try squareCanvas(), named: "square", directory: folder.path, record: false)
        } matching: { issue in
            issue.sourceLocation?.fileName == "GoldenAssertionTests.swift" && issue.sourceLocation?.line == callLine
                && "\(issue)".contains("no golden image")
        }
    }

    @Test func passingLeavesNothingBehind() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try? GoldenSnapshot.check(RGBA8Image(try squareCanvas()), named: "square", directory: folder.path, record: true)
        // A stale artifact of an earlier failure goes too.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".golden-failures"), withIntermediateDirectories: true)
        try Data([1]).write(to: folder.appendingPathComponent(".golden-failures/square.actual.png"))
        assertImageMatchesGolden(try squareCanvas(), named: "square", directory: folder.path, record: false)
        #expect(filesUnder(folder) == ["square.png"])
    }

    /// Without `directory`, the golden is Goldens/GoldenAssertionTests/NAME.png beside
    /// this file, whatever the working directory; recording fails the test and says so.
    @Test func recordingWritesBesideTheTestFileAndFails() throws {
        let name = "record-\(UUID().uuidString.prefix(8).lowercased())"
        let goldens = GoldenAssertionTests.testFolder.appendingPathComponent("Goldens")
        let golden = goldens.appendingPathComponent("GoldenAssertionTests/\(name).png")
        defer {
            try? FileManager.default.removeItem(at: golden)
            _ = rmdir(goldens.appendingPathComponent("GoldenAssertionTests").path)
            _ = rmdir(goldens.path)
        }
        try withKnownIssue {
            assertImageMatchesGolden(try squareCanvas(), named: name, record: true)
        } matching: { issue in
            "\(issue)".contains("recorded \(golden.path)")
        }
        #expect(FileManager.default.fileExists(atPath: golden.path))
        assertImageMatchesGolden(try squareCanvas(), named: name, record: false)
    }

    /// A relative `directory` is taken from this file's folder, not the working directory.
    @Test func relativeDirectoryIsFromTheTestFile() throws {
        let relative = "../../.build/golden-assertion-\(UUID().uuidString)"
        let folder = GoldenAssertionTests.testFolder.appendingPathComponent(relative).standardizedFileURL
        defer { try? FileManager.default.removeItem(at: folder) }
        try withKnownIssue {
            assertImageMatchesGolden(try squareCanvas(), named: "square", directory: relative, record: true)
        } matching: { issue in
            "\(issue)".contains("recorded \(folder.path)/square.png")
        }
        #expect(filesUnder(folder) == ["square.png"])
    }
}
