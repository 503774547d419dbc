import PinmintRaster
@testable import PinmintSVG
import Testing

/// A document from SVG text; failures name the test's input.
func document(_ text: String, file: String? = nil) throws -> SVGDocument {
    try SVGDocument(data: Array(text.utf8), file: file)
}

/// The body wrapped in a 20 × 20 px `svg` element, rendered at scale 1.
func render(_ body: String, attributes: String = "width=\"20\" height=\"20\"") throws -> Canvas {
    try document("<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)>\(body)</svg>").render(scale: 1)
}

/// The error a document's reading throws, or nil.
func readingError(_ text: String, file: String? = nil) -> SVGError? {
    do {
        _ = try SVGDocument(data: Array(text.utf8), file: file)
        return nil
    } catch {
        return error
    }
}

/// True when the two colours match within `tolerance` per channel (alpha
/// compared always; colour channels only where the pixel is not transparent).
func isClose(_ actual: Color, _ expected: Color, tolerance: Double = 0.02) -> Bool {
    guard abs(actual.alpha - expected.alpha) <= tolerance else { return false }
    if expected.alpha == 0 { return true }
    return abs(actual.red - expected.red) <= tolerance && abs(actual.green - expected.green) <= tolerance
        && abs(actual.blue - expected.blue) <= tolerance
}

let red = Color(red: 1, green: 0, blue: 0)
let lime = Color(red: 0, green: 1, blue: 0)
let blue = Color(red: 0, green: 0, blue: 1)
