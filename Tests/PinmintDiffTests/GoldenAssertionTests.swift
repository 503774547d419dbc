import Foundation
import PinmintDiff
import PinmintRaster
import PinmintSVG
import Testing

struct GoldenAssertionTests {
    func canvas(offset: Double = 2) throws -> Canvas {
        try SVGDocument(data: Array("<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect x='\(offset)' y='2' width='6' height='6' fill='#1E88E5'/></svg>".utf8)).render(scale: 1)
    }

    @Test func recordThenMatch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try assertImageMatchesGolden(try canvas(), named: "square@2x", directory: folder.path, record: true)
        } throws: { error in
            (error as? GoldenMismatch)?.kind == .recorded && "\(error)".contains("PINMINT_RECORD")
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("square@2x.png").path))
        try assertImageMatchesGolden(try canvas(), named: "square@2x", directory: folder.path, record: false)
    }

    @Test func mismatchWritesActualAndDiff() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try? assertImageMatchesGolden(try canvas(), named: "square", directory: folder.path, record: true)
        var caught: GoldenMismatch?
        do {
            try assertImageMatchesGolden(try canvas(offset: 3), named: "square", directory: folder.path, record: false)
        } catch let error as GoldenMismatch {
            caught = error
        }
        let mismatch = try #require(caught)
        guard case .pixelsDiffer(let count, _) = mismatch.kind else { Issue.record("\(mismatch)"); return }
        #expect(count >= 6)
        let failures = folder.appendingPathComponent(".golden-failures")
        #expect(try FileManager.default.contentsOfDirectory(atPath: failures.path).sorted() == ["square.actual.png", "square.diff.png"])
        #expect(mismatch.description.contains("square.diff.png"))
        // Within a tolerance it passes, and the stale artifacts go.
        try assertImageMatchesGolden(try canvas(offset: 3), named: "square", directory: folder.path, tolerance: .pixels(count),
                                     record: false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: failures.path).isEmpty)
    }

    @Test func missingGoldenFailsAndSaysHowToRecord() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try assertImageMatchesGolden(try canvas(), named: "new", directory: folder.path, record: false)
        } throws: { error in
            (error as? GoldenMismatch)?.kind == .missing && "\(error)".contains("PINMINT_RECORD=1")
        }
    }

    @Test func sizeChangeFails() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try? assertImageMatchesGolden(try canvas(), named: "square", directory: folder.path, record: true)
        #expect {
            try assertImageMatchesGolden(try Canvas(width: 11, height: 10), named: "square", directory: folder.path, record: false)
        } throws: { error in
            (error as? GoldenMismatch)?.kind == .sizesDiffer(expectedWidth: 10, expectedHeight: 10, actualWidth: 11, actualHeight: 10)
        }
    }
}
