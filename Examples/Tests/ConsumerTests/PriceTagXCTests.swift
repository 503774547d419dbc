import Foundation
import PinmintTesting
import XCTest

/// A golden test as an XCTest suite writes it: the golden folder is found
/// from this file, so the test passes from any working directory.
final class PriceTagXCTests: XCTestCase {
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden").path

    func testPriceTagWithACJKLabelMatchesItsGolden() throws {
        let canvas = try drawPreset("price-tag", options: ["label": "5200萬", "badge": "成"], scale: 2)
        assertImageMatchesGolden(canvas, named: "price-tag@2x", directory: Self.goldenFolder)
    }
}
