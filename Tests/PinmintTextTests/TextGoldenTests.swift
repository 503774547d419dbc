import Foundation
import PinmintGeometry
import PinmintPNG
import PinmintRaster
import PinmintTesting
import PinmintText
import Testing

/// Golden/text/<name>.txt rendered and compared with Golden/text/<name>.png;
/// rules and tolerance in Golden/text/README.md.
@Suite struct TextGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Golden/text")
    /// Per channel, 8-bit straight alpha. A mismatch writes
    /// Golden/text/.golden-failures/NAME.actual.png and NAME.diff.png.
    static let tolerance = 2.0

    static let cases = ["latin", "latin@2x", "cjk", "mixed", "bold", "halo", "wrapped"]

    struct Input {
        var text = "", size = 12.0, scale = 1.0, weight = 400
        var color = Color.black, halo: TextHalo? = nil, background = Color.transparent
        var style = TextStyle()

        init(parsing source: String) throws {
            for line in source.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let key = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch key {
                case "text": text = value.replacingOccurrences(of: "\\n", with: "\n")
                case "size": size = try #require(Double(value))
                case "scale": scale = try #require(Double(value))
                case "weight": weight = try #require(Int(value))
                case "color": color = try Color(parsing: value)
                case "background": background = value == "transparent" ? .transparent : try Color(parsing: value)
                case "halo":
                    let parts = value.split(separator: " ")
                    halo = TextHalo(color: try Color(parsing: String(parts[0])), width: try #require(Double(String(parts[1]))))
                case "max-width": style.maxWidth = try #require(Double(value) as Double?)
                case "max-lines": style.maxLines = try #require(Int(value) as Int?)
                case "alignment": style.alignment = try #require(TextAlignment(rawValue: value))
                default: Issue.record("unknown key '\(key)'")
                }
            }
            style.fontSize = size
        }
    }

    static func render(_ input: Input) throws -> Canvas {
        let library = try shippedLibrary()
        let layout = try TextLayout(text: input.text, style: input.style, fallback: try library.fallback(weight: input.weight),
                                    scale: input.scale)
        let margin = 4.0
        let canvas = try Canvas(width: Int(((layout.size.width + 2 * margin) * input.scale).rounded(.up)),
                                height: Int(((layout.size.height + 2 * margin) * input.scale).rounded(.up)))
        canvas.clear(input.background)
        try layout.draw(on: canvas, at: Point(margin, margin), color: input.color, halo: input.halo)
        return canvas
    }

    @Test(arguments: cases)
    func textMatchesGolden(name: String) throws {
        let input = try Input(parsing: String(contentsOf: TextGoldenTests.folder.appendingPathComponent("\(name).txt"),
                                              encoding: .utf8))
        let canvas = try TextGoldenTests.render(input)
        assertImageMatchesGolden(canvas, named: name, directory: "../../Golden/text",
                                 tolerance: .channels(maximum: TextGoldenTests.tolerance))
    }
}
