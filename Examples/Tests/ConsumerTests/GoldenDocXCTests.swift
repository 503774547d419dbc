// docs/golden.md, "The assertion": the same check as an XCTest test, with a
// tolerance (golden in Goldens/GoldenDocXCTests/ beside this file).
import PinmintSVG
import PinmintTesting
import XCTest

final class PinTests: XCTestCase {
    func testPin() throws {
        let canvas = try SVGDocument(data: Array(pinIcon.utf8)).render(scale: 2)
        assertImageMatchesGolden(canvas, named: "pin@2x", tolerance: .channels(maximum: 2))
    }
}
