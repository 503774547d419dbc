import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintText

/// `PinmintBench text [--iterations N]`: µs to lay out and draw a label
/// per script at 12 pt @2x (24 px, light hinting) on a reused canvas,
/// median of N, with Pinmint's shipped fonts:
/// - cold: every outline cache emptied first, so each glyph is loaded,
///   hinted and decomposed by FreeType again (fonts stay open);
/// - warm: outlines from the cache; shaping, layout and drawing only.
/// Baseline in the same run: FreeType loading and rendering the label's
/// glyphs itself (FT_Load_Glyph + FT_Render_Glyph, no shaping, no layout,
/// no compositing). The price label "5200萬" (digits from Noto Sans, 萬
/// from Noto Sans CJK SC) comes first, as in earlier runs.
func runTextBench(_ arguments: [String]) throws {
    var iterations = 400
    if arguments.count == 2, arguments[0] == "--iterations", let count = Int(arguments[1]), count > 0 { iterations = count }
    let scale = 2.0
    let labels: [(name: String, text: String)] = [
        ("text-5200-12pt@2x", "5200萬"),
        ("latin-12pt@2x", "Café AVATAR"),
        ("cjk-12pt@2x", "我是商户名"),
        ("arabic-12pt@2x", "مطعم السلام"),
        ("devanagari-12pt@2x", "नमस्ते दिल्ली"),
    ]
    let openStart = DispatchTime.now().uptimeNanoseconds
    let library = try FontLibrary(folders: [FontLibrary.shippedFontsFolder])
    let fallback = try library.fallback()
    let openMicroseconds = Double(DispatchTime.now().uptimeNanoseconds - openStart) / 1000
    let style = TextStyle(fontSize: 12)

    func median(_ body: () throws -> Void) rethrows -> Double {
        var samples: [Double] = []
        for iteration in 0..<(iterations + 20) {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            if iteration >= 20 { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000) }
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    print("Text: lay out and draw a label per script at 12 pt @2x, median of \(iterations) runs")
    print(String(format: "open the shipped fonts (once)      %10.1f µs", openMicroseconds))
    for (name, label) in labels {
        let measured = try TextLayout(text: label, style: style, fallback: fallback, scale: scale)
        guard measured.missingCharacters.isEmpty else {
            print("PinmintBench: the shipped fonts lack \(measured.missingCharacters) of \(label)")
            exit(1)
        }
        let canvas = try Canvas(width: Int(measured.deviceSize.width) + 2, height: Int(measured.deviceSize.height) + 2)
        let cold = try median {
            for member in fallback.members { member.face.removeCachedOutlines() }
            canvas.clear()
            let layout = try TextLayout(text: label, style: style, fallback: fallback, scale: scale)
            try layout.draw(on: canvas, at: Point(0.5, 0.5), color: .white)
        }
        let warm = try median {
            canvas.clear()
            let layout = try TextLayout(text: label, style: style, fallback: fallback, scale: scale)
            try layout.draw(on: canvas, at: Point(0.5, 0.5), color: .white)
        }
        let layoutOnly = try median { _ = try TextLayout(text: label, style: style, fallback: fallback, scale: scale) }
        let drawOnly = try median { canvas.clear(); try measured.draw(on: canvas, at: Point(0.5, 0.5), color: .white) }
        let glyphs = measured.lines[0].glyphs.map { (fallback.members[$0.member].face, $0.glyph) }
        let freeType = try median {
            for (face, glyph) in glyphs { _ = try face.referenceBitmap(glyph: glyph, pixelSize: 12 * scale) }
        }
        print("\(name): \"\(label)\" (\(glyphs.count) glyphs, \(canvas.width)x\(canvas.height) px)")
        print(String(format: "  cold cache                       %10.1f µs   %.2f x FreeType", cold, cold / freeType))
        print(String(format: "  warm cache                       %10.1f µs   %.2f x FreeType", warm, warm / freeType))
        print(String(format: "    of which shaping and layout    %10.1f µs", layoutOnly))
        print(String(format: "    of which draw                  %10.1f µs", drawOnly))
        print(String(format: "  baseline: FreeType load+render   %10.1f µs", freeType))
    }
}
