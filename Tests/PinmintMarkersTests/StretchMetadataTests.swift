import Foundation
import PinmintGeometry
@testable import PinmintMarkers
import Testing

/// Issue 23: the stretch metadata of a marker drawn without text is what
/// MapLibre's `icon-text-fit` needs. The content box is not empty and holds
/// every run; every run is identical columns (rows) of the image as a sprite
/// stores it; runs beside a centred pointer mirror each other; a body with
/// flat rows gets `stretchY`; and stretched as MapLibre stretches it (its
/// `getIconQuads` arithmetic, below) the pointer stays centred on the label
/// and the corners keep their pixels.
@Suite struct StretchMetadataTests {
    /// Text-less markers: every preset, the neutral tag with a border and a
    /// shadow, and bubbles and boxes built for the purpose.
    static let cases: [(name: String, json: String?, options: [String: String])] = [
        ("price-tag", nil, ["label": ""]),
        ("price-tag badge", nil, ["label": "", "badge": "成"]),
        ("price-tag", nil, ["label": "", "shadow": "true", "border": "#FFFFFF", "border-width": "1.5", "height": "40"]),
        ("price-tag", nil, ["label": "", "pointer": "left"]),
        ("seed-price-tag", nil, ["label": ""]),
        ("callout", nil, [:]),
        ("seed-callout", nil, ["title": "", "subtitle": ""]),
        ("avatar", nil, [:]),
        ("pin", nil, [:]),
        ("wide-bubble", ##"{"type": "box", "shape": {"type": "bubble", "radius": 8, "arrow": {"width": 16, "height": 8}}, "fill": "#2C3E50", "width": 121, "height": 41, "children": [{"type": "text", "text": "", "content": true}]}"##, [:]),
        ("top-arrow", ##"{"type": "box", "shape": {"type": "bubble", "radius": 4, "arrow": {"side": "top", "width": 12, "height": 6}}, "fill": "#C0392B", "stroke": {"color": "#FFFFFF", "width": 2}, "width": 90, "height": 30, "children": [{"type": "text", "text": "", "content": true}]}"##, [:]),
        ("side-arrow", ##"{"type": "box", "shape": {"type": "bubble", "radius": 4, "arrow": {"side": "left", "width": 12, "height": 6}}, "fill": "#16A085", "width": 90, "height": 40, "children": [{"type": "text", "text": "", "content": true}]}"##, [:]),
        ("shadowed-badge", ##"{"type": "box", "shape": {"type": "roundedRect", "radius": 4}, "fill": "#34495E", "layout": "row", "alignX": "start", "padding": [0, 4], "gap": 4, "width": 120, "height": 48, "children": [{"type": "box", "shape": "circle", "fill": "#F1C40F", "shadow": {"color": "#000000AA", "offset": [2, 2], "radius": 3}, "width": 24, "height": 24}, {"type": "text", "text": "", "content": true}]}"##, [:]),
        // Too narrow for flat columns beside its arrow (radius 8 + 16 pt arrow + radius 8 in a 20 pt body):
        // drawn without text it grows until there is a run each side (Tests/Browser's stretch-bubble).
        ("narrow-bubble", ##"{"type": "box", "shape": {"type": "bubble", "radius": 8, "arrow": {"side": "bottom", "width": 16, "height": 8}}, "fill": "#2E7D32", "padding": [6, 10, 6, 10], "children": [{"type": "text", "text": "", "fontSize": 14}]}"##, [:]),
        ("plain-box", ##"{"type": "box", "shape": {"type": "roundedRect", "radius": 5}, "fill": "#8E44AD", "shadow": {"color": "#00000066", "offset": [0, 2], "radius": 2}, "width": 70, "height": 44, "children": [{"type": "text", "text": "", "content": true}]}"##, [:]),
    ]

    func render(_ index: Int, scale: Double, renderer: MarkerRenderer) throws -> [RenderedMarker] {
        let (name, json, options) = StretchMetadataTests.cases[index]
        let style: MarkerStyle
        if let json {
            style = try MarkerStyle(json: Data(#"{"name": "\#(name)", "marker": \#(json)}"#.utf8), name: name, input: "\(name).json", baseDirectory: ".")
        } else {
            // "price-tag badge": the preset named by the first word.
            style = try #require(MarkerStyle.preset(named: String(name.split(separator: " ")[0])))
        }
        return try renderer.render(style: style, options: options, scale: scale)
    }

    /// Whether columns `x ..< x + 1` and `x + 1` of straight RGBA8 `pixels` (`width` wide) are the same bytes.
    static func sameColumns(_ pixels: [UInt8], width: Int, height: Int, _ a: Int, _ b: Int) -> Bool {
        (0..<height).allSatisfy { y in (0..<4).allSatisfy { pixels[(y * width + a) * 4 + $0] == pixels[(y * width + b) * 4 + $0] } }
    }

    static func sameRows(_ pixels: [UInt8], width: Int, _ a: Int, _ b: Int) -> Bool {
        pixels[(a * width * 4)..<((a + 1) * width * 4)] == pixels[(b * width * 4)..<((b + 1) * width * 4)]
    }

    @Test(arguments: 0..<cases.count)
    func stretchMetadataIsWhatMapLibreNeeds(index: Int) throws {
        let renderer = try makeRenderer()
        let name = StretchMetadataTests.cases[index].name
        var first: MarkerStretch? = nil
        for ratio in 1...4 {
            for marker in try render(index, scale: Double(ratio), renderer: renderer) where marker.variant == "default" {
                let meta = marker.metadata
                guard let stretch = meta.stretch else {
                    // Only shapes without a flat run (a pin, an avatar's teardrop) go without.
                    #expect(["pin", "avatar"].contains(name), "\(name) @\(ratio)x has no stretch metadata")
                    continue
                }
                let c = stretch.content
                #expect(c[0] < c[2] && c[1] < c[3] && c[0] >= 0 && c[1] >= 0 && c[2] <= meta.width && c[3] <= meta.height,
                        "\(name) @\(ratio)x: content \(c)")
                let pixels = marker.canvas.straightRGBA8()
                for (runs, low, high) in [(stretch.stretchX, c[0], c[2]), (stretch.stretchY, c[1], c[3])] {
                    var previous = low
                    for run in runs {
                        #expect(run[0] >= previous && run[0] < run[1] && run[1] <= high, "\(name) @\(ratio)x: run \(run) outside content \(c)")
                        previous = run[1]
                    }
                }
                for run in stretch.stretchX {
                    for x in run[0]..<(run[1] - 1) where !StretchMetadataTests.sameColumns(pixels, width: meta.width, height: meta.height, x, x + 1) {
                        Issue.record("\(name) @\(ratio)x: columns \(x) and \(x + 1) of run \(run) differ")
                        break
                    }
                }
                for run in stretch.stretchY {
                    for y in run[0]..<(run[1] - 1) where !StretchMetadataTests.sameRows(pixels, width: meta.width, y, y + 1) {
                        Issue.record("\(name) @\(ratio)x: rows \(y) and \(y + 1) of run \(run) differ")
                        break
                    }
                }
                // Runs beside a pointer centred in the content mirror each other about the tip.
                if Double(c[0] + c[2]) / 2 == meta.anchor.x, stretch.stretchX.count == 2 {
                    let (left, right) = (stretch.stretchX[0], stretch.stretchX[1])
                    #expect(Double(left[0] + right[1]) / 2 == meta.anchor.x && left[1] - left[0] == right[1] - right[0],
                            "\(name) @\(ratio)x: \(stretch.stretchX) not mirrored about \(meta.anchor.x)")
                }
                // The same in CSS pixels at every ratio.
                let css = MarkerStretch(content: c.map { $0 / ratio }, stretchX: stretch.stretchX.map { $0.map { $0 / ratio } },
                                        stretchY: stretch.stretchY.map { $0.map { $0 / ratio } }, textSize: stretch.textSize,
                                        padding: stretch.padding, offset: stretch.offset)
                #expect(c.allSatisfy { $0 % ratio == 0 })
                if let first { #expect(css == first, "\(name) @\(ratio)x differs from @1x in CSS pixels") } else { first = css }
            }
        }
    }

    /// The neutral tag and callout and the purpose-built bubbles and box have
    /// flat columns and rows both: MapLibre can fit them around any label
    /// with `icon-text-fit: both`.
    @Test(arguments: ["price-tag", "price-tag badge", "callout", "wide-bubble", "top-arrow", "side-arrow", "plain-box", "narrow-bubble"])
    func bodiesWithFlatRunsGetBothAxes(name: String) throws {
        let index = try #require(StretchMetadataTests.cases.firstIndex { $0.name == name })
        for ratio in [1.0, 2.0] {
            let stretch = try #require(try render(index, scale: ratio, renderer: makeRenderer())[0].metadata.stretch)
            #expect(!stretch.stretchX.isEmpty && !stretch.stretchY.isEmpty, "\(name) @\(ratio)x: \(stretch)")
        }
    }

    // MARK: MapLibre's stretch, simulated

    /// Where image coordinate `x` (pixels) lands, in CSS pixels from the start
    /// of the fitted content, when MapLibre fits `content` to `size` CSS
    /// pixels: `getEmOffset` + `getPxOffset` ÷ pixel ratio of maplibre-gl-js's
    /// `getIconQuads` (src/symbol/quads.ts), for one axis.
    static func place(_ x: Double, runs: [[Int]], content: (Int, Int), size: Double, ratio: Double) -> Double {
        func within(_ from: Double, _ to: Double) -> Double {
            runs.reduce(0) { $0 + max(from, min(to, Double($1[1]))) - max(from, min(to, Double($1[0]))) }
        }
        let total = within(0, .infinity)
        let stretchOffset = within(0, Double(content.0)), stretchContent = within(Double(content.0), Double(content.1))
        let fixedOffset = Double(content.0) - stretchOffset, fixedContent = Double(content.1 - content.0) - stretchContent
        let stretched = within(0, x), fixed = x - stretched
        let em = (stretched - stretchOffset) / stretchContent * size
        let px = (fixed - fixedOffset) - fixedContent * stretched / total
        return em + px / ratio
    }

    /// A marker fitted around a label wider and taller than its content: the
    /// tip stays centred under the label's box and below it by what the
    /// metadata's offset says, and the corners and the pointer keep their pixels.
    @Test(arguments: [("price-tag", 1.0), ("price-tag", 2.0), ("price-tag", 3.0), ("price-tag badge", 1.0), ("price-tag badge", 2.0),
                      ("callout", 2.0), ("wide-bubble", 2.0), ("top-arrow", 2.0), ("narrow-bubble", 1.0), ("narrow-bubble", 2.0)])
    func stretchedAsMapLibreDoesThePointerStaysCentred(name: String, ratio: Double) throws {
        let index = try #require(StretchMetadataTests.cases.firstIndex { $0.name == name })
        let marker = try render(index, scale: ratio, renderer: makeRenderer())[0]
        let meta = marker.metadata
        let stretch = try #require(meta.stretch)
        let c = stretch.content
        // A label of 140 × 14.4 CSS px (one line of 12 px text) and the padding the metadata asks for.
        let padding = stretch.padding
        let size = (x: 140.0 + padding[1] + padding[3], y: MarkerStretch.textLineHeight * stretch.textSize + padding[0] + padding[2])
        #expect(size.x * ratio > Double(c[2] - c[0]), "the label is wider than the content")
        func placeX(_ x: Double) -> Double { StretchMetadataTests.place(x, runs: stretch.stretchX, content: (c[0], c[2]), size: size.x, ratio: ratio) }
        func placeY(_ y: Double) -> Double { StretchMetadataTests.place(y, runs: stretch.stretchY, content: (c[1], c[3]), size: size.y, ratio: ratio) }
        // The content lands on the label's box, the tip under its middle.
        #expect(abs(placeX(Double(c[0]))) < 1e-9 && abs(placeX(Double(c[2])) - size.x) < 1e-9)
        #expect(abs(placeX(meta.anchor.x) - size.x / 2) < 1e-9, "\(name) @\(ratio)x: tip at \(placeX(meta.anchor.x)) of \(size.x)")
        // With the offset, the label box's centre is at offset from the point and the tip on it.
        let offset = try #require(stretch.offset)
        #expect(abs(offset.x) < 1e-9)
        let labelTop = offset.y - MarkerStretch.textLineHeight * stretch.textSize / 2 - padding[0]
        #expect(abs(labelTop + placeY(meta.anchor.y)) < 1e-9, "\(name) @\(ratio)x: the tip lands \(labelTop + placeY(meta.anchor.y)) px off the point")

        // Draw the stretched image as MapLibre samples it (each output pixel from the source
        // column and row its centre maps back to) and compare the fixed parts with the source.
        let pixels = marker.canvas.straightRGBA8(), width = meta.width, height = meta.height
        func inverse(_ target: Double, place: (Double) -> Double, length: Int) -> Int {
            var low = 0.0, high = Double(length)
            for _ in 0..<60 { let middle = (low + high) / 2; if place(middle) <= target { low = middle } else { high = middle } }
            return min(length - 1, max(0, Int(low)))
        }
        let origin = (x: placeX(0), y: placeY(0))
        let outWidth = Int(((placeX(Double(width)) - origin.x) * ratio).rounded()), outHeight = Int(((placeY(Double(height)) - origin.y) * ratio).rounded())
        func source(_ u: Int, _ v: Int) -> (Int, Int) {
            (inverse(origin.x + (Double(u) + 0.5) / ratio, place: placeX, length: width),
             inverse(origin.y + (Double(v) + 0.5) / ratio, place: placeY, length: height))
        }
        func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 4)] }
        // Top-left and bottom-right corners (up to the first and after the last run) are the source's own pixels.
        let firstRun = (x: stretch.stretchX.first?[0] ?? c[0], y: stretch.stretchY.first?[0] ?? c[1])
        let lastRun = (x: stretch.stretchX.last?[1] ?? c[2], y: stretch.stretchY.last?[1] ?? c[3])
        var differing = 0
        for v in 0..<firstRun.y { for u in 0..<firstRun.x where pixel(source(u, v).0, source(u, v).1) != pixel(u, v) { differing += 1 } }
        for v in 0..<(height - lastRun.y) {
            for u in 0..<(width - lastRun.x) {
                let (sx, sy) = source(outWidth - 1 - u, outHeight - 1 - v)
                if pixel(sx, sy) != pixel(width - 1 - u, height - 1 - v) { differing += 1 }
            }
        }
        #expect(differing == 0, "\(name) @\(ratio)x: \(differing) corner pixels changed")
        // The pointer's columns around the stretched tip are the source's pointer columns.
        let tipOut = Int(((placeX(meta.anchor.x) - origin.x) * ratio).rounded()), tip = Int(meta.anchor.x)
        let pointerRows = meta.anchor.y > Double(c[3]) ? (c[3]..<height) : (0..<c[1])
        for dx in -Int(4 * ratio)..<Int(4 * ratio) {
            for y in pointerRows {
                let v = meta.anchor.y > Double(c[3]) ? outHeight - (height - y) : y
                let (sx, sy) = source(tipOut + dx, v)
                if pixel(sx, sy) != pixel(tip + dx, y) { differing += 1 }
            }
        }
        #expect(differing == 0, "\(name) @\(ratio)x: \(differing) pointer pixels changed")
    }
}

/// The stretch metadata in the JSON `render --meta` writes: new keys beside the old ones.
@Suite struct StretchMetadataJSONTests {
    @Test func metadataJSONGivesTheStretchAndTheOffset() throws {
        let style = try #require(MarkerStyle.preset(named: "price-tag"))
        let meta = try makeRenderer().render(style: style, options: ["label": ""], scale: 2)[0].metadata
        let stretch = try #require(meta.stretch)
        let json = meta.json()
        let object = try #require(json["stretch"] as? [String: Any])
        #expect(object["content"] as? [Int] == stretch.content)
        #expect(object["stretchX"] as? [[Int]] == stretch.stretchX && object["stretchY"] as? [[Int]] == stretch.stretchY)
        let maplibre = try #require(json["maplibre"] as? [String: Any])
        #expect(maplibre["icon-anchor"] as? String == "bottom" && maplibre["icon-offset"] != nil, "the old keys stay")
        let fit = try #require(maplibre["icon-text-fit"] as? [String: Any])
        let offset = try #require(stretch.offset)
        // The tag: the tip is 13 pt below the content's bottom; a 12 px label's box is 14.4 high.
        #expect(abs(offset.y - -(7.2 + 13)) < 1e-9 && offset.x == 0)
        #expect((fit["text-offset"] as? [NSNumber])?.map(\.doubleValue) == [0, -1.683] && fit["text-size"] as? Int == 12)
        // A marker with its label drawn has no stretch metadata in its JSON.
        let labelled = try makeRenderer().render(style: style, options: ["label": "5200萬"], scale: 2)[0].metadata
        #expect(labelled.stretch == nil && labelled.json()["stretch"] == nil)
    }
}
