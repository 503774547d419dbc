import Foundation
import PinmintDiff
import PinmintTesting
import XCTest

/// `assertImageMatchesGolden` in an XCTest test: the failure is XCTest's, at
/// the call's file and line (it used to be `<EXPR>:0`, from a thrown error).
final class GoldenAssertionXCTests: XCTestCase {
    /// Failures this test case recorded instead of failing (file, line, description).
    private var captured: [(file: String, line: Int, description: String)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
                                expected: Bool) {
        if capturing {
            captured.append((filePath, lineNumber, description))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testFailureIsReportedAtTheCall() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-xctest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        capturing = true
        assertImageMatchesGolden(try squareCanvas(), named: "square", directory: folder.path, record: false)
        let callLine = #line - 1
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertEqual(captured.first?.file, #filePath)
        XCTAssertEqual(captured.first?.line, callLine)
        XCTAssertTrue(captured.first?.description.contains("no golden image") == true, "\(captured)")
    }

    func testRecordingFailsAndAMatchPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-xctest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        capturing = true
        assertImageMatchesGolden(try squareCanvas(), named: "square@2x", directory: folder.path, record: true)
        capturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.description.contains("recorded \(folder.path)/square@2x.png") == true, "\(captured)")
        // Not captured: a failure here fails this test.
        assertImageMatchesGolden(try squareCanvas(), named: "square@2x", directory: folder.path, record: false)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["square@2x.png"])
    }
}
