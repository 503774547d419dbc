import Foundation
import PinmintGeometry
@testable import PinmintMarkers
import Testing

/// Issue 23: a marker's layout is decided once in points, so its @N image is
/// exactly N times its @1x image in width and height, and its anchor, hit
/// boxes, content box and stretch metadata are the same in CSS pixels at
/// every ratio (Leaflet's `iconRetinaUrl` shares one `iconSize`; a MapLibre
/// style has one `icon-offset` for every ratio).
@Suite struct ExactScaleTests {
    /// Short, long Latin, CJK and Arabic labels (and none: the stretchable sprite).
    static let labels = ["1", "O'Reilly's Pub", "台北市大安區", "مقهى النخيل", ""]

    /// Every preset with each label where its text goes.
    static func cases() -> [(name: String, options: [String: String])] {
        var cases: [(String, [String: String])] = []
        for label in labels {
            cases.append(("price-tag", ["label": label]))
            cases.append(("price-tag", ["label": label, "shadow": "true", "border": "#FFFFFF", "border-width": "1.5"]))
            cases.append(("seed-price-tag", ["label": label]))
            cases.append(("callout", ["title": label]))
            cases.append(("callout", ["title": label, "subtitle": label]))
            cases.append(("seed-callout", ["title": label]))
            cases.append(("avatar", ["name": label]))
            cases.append(("pin", ["label": label]))
        }
        return cases
    }

    /// What of `marker` must scale: every number in CSS pixels (pixels ÷ ratio).
    struct Measures: Equatable, CustomStringConvertible {
        var size: [Double], anchor: [Double], hits: [[Double]], content: [Double]?
        var stretchX: [[Double]]?, stretchY: [[Double]]?, stretchContent: [Double]?

        init(_ marker: RenderedMarker) {
            let meta = marker.metadata, r = meta.pixelRatio
            func css(_ box: PixelBox) -> [Double] { [box.x, box.y, box.width, box.height].map { Double($0) / r } }
            size = [Double(meta.width) / r, Double(meta.height) / r]
            anchor = [meta.anchor.x / r, meta.anchor.y / r]
            hits = meta.hitBoxes.map(css)
            content = meta.contentBox.map(css)
            stretchX = meta.stretch?.stretchX.map { $0.map { Double($0) / r } }
            stretchY = meta.stretch?.stretchY.map { $0.map { Double($0) / r } }
            stretchContent = meta.stretch?.content.map { Double($0) / r }
        }

        var description: String {
            "size \(size) anchor \(anchor) hits \(hits) content \(content.map { "\($0)" } ?? "none") "
                + "stretch \(stretchContent.map { "\($0)" } ?? "none") x \(stretchX ?? []) y \(stretchY ?? [])"
        }
    }

    /// Renders every case at ratios 1 to 4 and lists each case and ratio
    /// whose image is not exactly N × @1x or whose metadata differs in CSS pixels.
    func mismatches() throws -> (checked: Int, off: [String]) {
        let renderer = try makeRenderer()
        var checked = 0, off: [String] = []
        for (name, options) in ExactScaleTests.cases() {
            let style = try #require(MarkerStyle.preset(named: name), "no preset \(name)")
            let base = try renderer.render(style: style, options: options, scale: 1)
            for ratio in 2...4 {
                let scaled = try renderer.render(style: style, options: options, scale: Double(ratio))
                for (one, many) in zip(base, scaled) {
                    checked += 1
                    let sizeExact = many.metadata.width == ratio * one.metadata.width
                        && many.metadata.height == ratio * one.metadata.height
                    let a = Measures(one), b = Measures(many)
                    if !sizeExact || a != b {
                        off.append("\(sizeExact ? "" : "size ")\(name) \(options) \(one.variant) @\(ratio)x:\n  @1x \(a)\n  @\(ratio)x \(b)")
                    }
                }
            }
        }
        return (checked, off)
    }

    @Test func everyPresetIsExactAtEveryRatio() throws {
        let (checked, off) = try mismatches()
        // 5 labels × 8 cases, the avatar with two variants, × ratios 2, 3, 4.
        #expect(checked == 5 * 9 * 3)
        let sizes = off.filter { $0.hasPrefix("size ") }.count
        let report = "\(sizes) of them not N × @1x in pixels\n" + off.prefix(12).joined(separator: "\n")
        #expect(off.isEmpty, "\(off.count) of \(checked) preset × label × ratio combinations are not exact:\n\(report)")
    }
}

/// Every marker description of the golden suite (presets with pictures and
/// icons, both avatar states, and the custom compositions), exact at ratios 1–4.
@Suite struct ExactScaleDescriptionTests {
    @Test(arguments: MarkerGoldenTests.cases)
    func goldenDescriptionIsExactAtEveryRatio(name: String) throws {
        let file = try MarkerFile(contentsOfFile: MarkerGoldenTests.folder.appendingPathComponent("\(name).json").path)
        let renderer = try makeRenderer()
        for description in try file.style.resolve(values: file.values) {
            let one = try renderer.render(description, scale: 1)
            for ratio in 2...4 {
                let many = try renderer.render(description, scale: Double(ratio))
                #expect(many.metadata.width == ratio * one.metadata.width && many.metadata.height == ratio * one.metadata.height,
                        "\(name) \(description.variant) @\(ratio)x: \(many.metadata.width)x\(many.metadata.height)")
                #expect(ExactScaleTests.Measures(one) == ExactScaleTests.Measures(many), "\(name) \(description.variant) @\(ratio)x")
            }
        }
    }
}
