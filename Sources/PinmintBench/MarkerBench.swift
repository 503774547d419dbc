import Foundation
import PinmintMarkers

/// `PinmintBench markers [--baseline CAIRO.txt | --cairo BIN REPLAY [--rounds N]] [--iterations N] [--unit TEXT] [--only price-tag|price-tag-new-width|price-tag-batch|price-tag-cold|callout|text-only|resolve|checksums]`:
/// µs per marker through `MarkerRenderer` (layout, text, drawing; no option
/// filling, no PNG), warm renderer, median of N:
/// - `price-tag` "5200萬" with badge 成 at @2x (a different price every iteration: 5200萬, 5201萬 …);
/// - `price-tag-new-width`: "5200萬" on bodies of widths the renderer has
///   not drawn (given widths, 140 to 238 pixels; fresh renderers, warmed);
/// - `price-tag-batch`: the mean over a batch's 1,000 prices (100 to 99,999,
///   log-uniform) drawn once each by a fresh renderer, first tags included;
/// - `price-tag-cold`: the same as `price-tag` with every shape rasterized on
///   each render (the renderer keeps no shape masks);
/// - `callout` with a 140 x 100 picture and two lines of text at @2x;
/// - `text-only` (only when asked for): the same price tags with the tag's and
///   the badge's shapes taken away, i.e. layout, text and canvas without fills.
/// `checksums` prints a hash of the 16-bit pixels, the metadata and the
/// warnings of every Golden/markers case at @1x, @2x and @3x (drawn twice by
/// one renderer, the second time from its caches, and the prices 5200萬 …
/// 5219萬): two builds that print the same lines draw the same markers.
/// The varying prices are put into one resolved description before timing
/// starts (the label's text replaced), so that a run's instruction count
/// (callgrind) holds renders and almost nothing else: the difference between
/// runs of 100 and 300 iterations is 200 renders.
/// `--unit` replaces the 萬 after each price (`--unit ""` gives digits only,
/// `--unit " EUR"` a Latin tag: one font, no fallback).
/// With a baseline, the target line: cairo drawing the price tag's three
/// shapes without text (scene price-tag@2x) in the same `make bench` run.
func runMarkerBench(_ arguments: [String]) throws {
    var iterations = 400, baselineFile: String? = nil, only: String? = nil, cairoCommand: [String]? = nil, rounds = 5
    var priceUnit = "萬"
    var index = 0
    while index + 1 < arguments.count {
        switch arguments[index] {
        case "--iterations": iterations = max(1, Int(arguments[index + 1]) ?? 400)
        case "--baseline": baselineFile = arguments[index + 1]
        case "--cairo" where index + 2 < arguments.count:
            // The cairo program and its replay file: measured in alternation with the price tag.
            cairoCommand = [arguments[index + 1], arguments[index + 2], "300"]; index += 1
        case "--rounds": rounds = max(1, Int(arguments[index + 1]) ?? 5)
        case "--only": only = arguments[index + 1]
        case "--unit": priceUnit = arguments[index + 1]
        default: break
        }
        index += 2
    }
    if only == "checksums" { try printMarkerChecksums(); return }
    let renderer = try MarkerRenderer()
    if only == "price-tag-cold" {
        // The price tag with every shape rasterized on each render (no kept shape masks).
        renderer.reusesShapeMasks = false
        only = "price-tag"
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let picture = root.appendingPathComponent("Golden/markers/pictures/storefront.png").path
    let priceTag = try MarkerStyle.preset(named: "price-tag")!.resolve(options: ["label": "5200\(priceUnit)", "badge": "成"])[0]
    let callout = try MarkerStyle.preset(named: "seed-callout")!.resolve(options: [
        "title": "Blue Bottle Coffee", "subtitle": "300 Webster St, Oakland", "picture": picture])[0]

    // Each iteration draws another price (made beforehand, not timed), so
    // the label is never a layout the renderer has already set.
    let priceTags = (0..<(iterations + 20)).map { iteration in
        withLabel("\(5200 + iteration)\(priceUnit)", in: priceTag)
    }
    // A batch's prices: 100 to 99,999, log-uniform from a fixed seed, each
    // tag drawn once, in order, by a renderer that has drawn no tag before
    // (its fonts loaded): what `pinmint batch` does per row. Timed as a mean,
    // so that the tags whose widths come first (their shapes not yet kept)
    // count in full.
    let batchTags: [MarkerDescription] = {
        guard only == "price-tag-batch" || cairoCommand != nil else { return [] }
        var state: UInt64 = 0x5eed_0f_7a95
        return (0..<max(iterations, 1000)).map { _ in
            // SplitMix64.
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            z ^= z >> 31
            let unit = Double(z >> 11) / Double(1 << 53)
            return withLabel("\(Int(100 * pow(1000, unit)))\(priceUnit)", in: priceTag)
        }
    }()
    func batchMean() throws -> (microseconds: Double, widths: Int) {
        let fresh = try MarkerRenderer()
        _ = try fresh.render(withoutShapes(withLabel("0123456789\(priceUnit)", in: priceTag)), scale: 2)
        var widths: Set<Int> = []
        let start = DispatchTime.now().uptimeNanoseconds
        for tag in batchTags { widths.insert(try fresh.render(tag, scale: 2).metadata.width) }
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(batchTags.count), widths.count)
    }
    // Tags of a width the renderer has not drawn: "5200萬" on a body of a
    // fixed width, 70 to 119 points (140 to 238 pixels @2x; the tag is 140
    // by itself, so these are a third larger on average). Whole points:
    // a marker's box is whole points, so halves would draw each width
    // twice (the second time from the renderer's masks). Each renderer
    // draws the fifty once, after ten tags of other widths (fonts, glyphs
    // and its pools warmed, not timed).
    let newWidthTags: [MarkerDescription] = (0..<50).map { step in
        var tag = priceTag
        tag.body.width = 70 + Double(step)
        return tag
    }
    func newWidthMedian() throws -> (microseconds: Double, widths: Int) {
        var samples: [Double] = []
        while samples.count < iterations {
            let fresh = try MarkerRenderer()
            for step in 0..<10 {
                var tag = priceTag
                tag.body.width = 130 + Double(step)
                _ = try fresh.render(tag, scale: 2)
            }
            for tag in newWidthTags {
                let start = DispatchTime.now().uptimeNanoseconds
                try renderNewWidth(tag, by: fresh)
                samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
            }
        }
        samples.sort()
        return (samples[samples.count / 2], newWidthTags.count)
    }
    if only == "price-tag-new-width" {
        let result = try newWidthMedian()
        print(String(format: "  price tags of a new width (%d widths), median %8.2f µs", result.widths, result.microseconds))
        return
    }
    if only == "price-tag-batch" {
        let result = try batchMean()
        print(String(format: "  price tags of a batch (%d prices, %d widths), mean %8.2f µs", batchTags.count, result.widths, result.microseconds))
        return
    }
    // The substitution must give what resolving gives (a price outside the timed ones).
    let substituted = try renderer.render(withLabel("9999\(priceUnit)", in: priceTag), scale: 2)
    let resolved = try renderer.render(try MarkerStyle.preset(named: "price-tag")!
        .resolve(options: ["label": "9999\(priceUnit)", "badge": "成"])[0], scale: 2)
    guard substituted.canvas.straightRGBA8() == resolved.canvas.straightRGBA8(), substituted.metadata == resolved.metadata else {
        print("PinmintBench: replacing the label does not draw what resolving it draws")
        exit(1)
    }
    func median(_ description: MarkerDescription, varying: [MarkerDescription]? = nil) throws -> (microseconds: Double, size: String) {
        var samples: [Double] = []
        var size = ""
        for iteration in 0..<(iterations + 20) {
            let start = DispatchTime.now().uptimeNanoseconds
            let marker = try renderer.render(varying?[iteration] ?? description, scale: 2)
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            if iteration >= 20 { samples.append(Double(elapsed) / 1000) }
            size = "\(marker.metadata.width)x\(marker.metadata.height)"
        }
        samples.sort()
        return (samples[samples.count / 2], size)
    }

    if only == "resolve" {
        // Filling a preset's options in (what a batch does per row), µs per call.
        let style = MarkerStyle.preset(named: "price-tag")!
        var samples: [Double] = []
        for iteration in 0..<(iterations + 20) {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try style.resolve(options: ["label": "\(5200 + iteration)萬", "badge": "成"])
            if iteration >= 20 { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000) }
        }
        samples.sort()
        print(String(format: "  resolve price-tag options: %.2f µs", samples[samples.count / 2]))
        return
    }
    if only == "text-only" {
        let bare = priceTags.map(withoutShapes)
        let result = try median(bare[0], varying: bare)
        print(String(format: "  price-tag without its shapes (layout, text, canvas) @2x (%@) %8.2f µs", result.size, result.microseconds))
        return
    }
    let tag = only == "callout" ? (microseconds: 0, size: "-") : try median(priceTag, varying: priceTags)
    let bubble = only == "price-tag" ? (microseconds: 0, size: "-") : try median(callout)
    print("markers (MarkerRenderer.render: options, layout, text, drawing; no PNG), median of \(iterations), µs")
    if only != "callout" { print(String(format: "  price-tag \"%@\" @2x (%@)        %8.2f", "5200\(priceUnit)", tag.size, tag.microseconds)) }
    if only != "price-tag" { print(String(format: "  callout, picture + 2 lines @2x (%@) %8.2f", bubble.size, bubble.microseconds)) }
    if let cairoCommand, only != "callout" {
        // Alternated `rounds` times: cairo's shapes, then the whole price tag,
        // tags of widths not drawn before, a batch's tags and the tag with
        // every shape rasterized on each render, each in a process of its
        // own. Compared fastest round against fastest round: see `runInterleaved`.
        let modes = ["price-tag", "price-tag-new-width", "price-tag-batch", "price-tag-cold"]
        var times: [String: [Double]] = [:], cairoTimes: [Double] = []
        for _ in 0..<rounds {
            guard let cairo = try measureProcess(cairoCommand)["price-tag@2x"] else {
                throw BenchError("cairo printed no time for price-tag@2x")
            }
            cairoTimes.append(cairo)
            for mode in modes {
                times[mode, default: []].append(try measureOwnProcess(["markers", "--only", mode, "--iterations", String(iterations)]))
            }
        }
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        func list(_ values: [Double]) -> String { values.map { String(format: "%.2f", $0) }.joined(separator: " ") }
        print(String(format: "  alternated %d times, each in a process of its own; cairo's three shapes: fastest %.2f µs, median %.2f (%@)",
                     rounds, cairoTimes.min()!, middle(cairoTimes), list(cairoTimes)))
        for (mode, title) in zip(modes, ["price tag \"5200萬\" (target <= 1.00)", "a tag of a width not drawn before",
                                         "a batch's tags (mean, first ones included)", "every shape rasterized on each render"]) {
            let ours = times[mode]!
            print(String(format: "  %@: fastest %.2f µs, ratio %.2f (median of the rounds' ratios %.2f; rounds %@)",
                         title, ours.min()!, ours.min()! / cairoTimes.min()!,
                         middle(zip(ours, cairoTimes).map { $0 / $1 }), list(ours)))
        }
    } else if let baselineFile, let text = try? String(contentsOfFile: baselineFile, encoding: .utf8),
              let cairo = parseCairoMedians(text)["price-tag@2x"] {
        print(String(format: "  cairo: the price tag's three shapes, no text, @2x      %8.2f", cairo))
        print(String(format: "  ratio price-tag / cairo shapes: %.2f (target <= 1.00)", tag.microseconds / cairo))
    }
}

/// `description` with the text of its part named "label" replaced by `label`
/// (what resolving the preset with that label gives, without resolving).
private func withLabel(_ label: String, in description: MarkerDescription) -> MarkerDescription {
    func replaced(_ part: Part) -> Part {
        var part = part
        switch part.kind {
        case .box(var box):
            box.children = box.children.map(replaced)
            part.kind = .box(box)
        case .text(var text) where part.name == "label":
            text.text = label
            part.kind = .text(text)
        default:
            break
        }
        return part
    }
    var description = description
    description.body = replaced(description.body)
    return description
}

/// `description` with every box's shape, fill, stroke and shadow removed.
private func withoutShapes(_ description: MarkerDescription) -> MarkerDescription {
    func bare(_ part: Part) -> Part {
        var part = part
        if case .box(var box) = part.kind {
            box.shape = nil
            box.fill = nil
            box.stroke = nil
            box.shadow = nil
            box.children = box.children.map(bare)
            part.kind = .box(box)
        }
        return part
    }
    var description = description
    description.body = bare(description.body)
    return description
}

/// See `runMarkerBench`'s `checksums`.
private func printMarkerChecksums() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = root.appendingPathComponent("Golden/markers")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
    var descriptions: [(String, MarkerDescription)] = []
    for name in names {
        let file = try MarkerFile(contentsOfFile: folder.appendingPathComponent(name).path)
        for description in try file.style.resolve(values: file.values) {
            descriptions.append(("\(name.dropLast(5))-\(description.variant)", description))
        }
    }
    let priceTag = try MarkerStyle.preset(named: "price-tag")!.resolve(options: ["label": "5200萬", "badge": "成"])[0]
    for price in 5200..<5220 { descriptions.append(("price-\(price)", withLabel("\(price)萬", in: priceTag))) }
    let renderer = try MarkerRenderer()
    for pass in ["first", "again"] {
        for (name, description) in descriptions {
            for scale in [1.0, 2.0, 3.0] {
                let marker = try renderer.render(description, scale: scale)
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for value in marker.canvas.makeImage().pixels { hash = (hash ^ UInt64(value)) &* 0x100_0000_01b3 }
                let metadata = MarkerMetadata.jsonText(marker.metadata.json()).split(separator: "\n").joined(separator: " ")
                print("\(pass) \(name)@\(Int(scale))x \(String(hash, radix: 16)) \(metadata) \(marker.warnings)")
            }
        }
    }
}

/// One timed render of `price-tag-new-width`, a function of its own so that
/// callgrind can count it alone (`--toggle-collect='*renderNewWidth*'`).
@inline(never)
private func renderNewWidth(_ tag: MarkerDescription, by renderer: MarkerRenderer) throws {
    _ = try renderer.render(tag, scale: 2)
}

/// Runs this program with `arguments` in a process of its own and returns
/// the last number it prints (the µs of one `markers --only` measurement).
func measureOwnProcess(_ arguments: [String]) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ownExecutable())
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0,
          let number = output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap({ Double($0) }).last else {
        throw BenchError("PinmintBench \(arguments.joined(separator: " ")) printed no time")
    }
    return number
}
