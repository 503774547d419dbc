import Foundation
import PinmintGeometry
import PinmintRaster
import PinmintText

/// Reading parts from a JSON tree (the marker description format, see
/// docs/markers.md). Every error names the input and the JSON path.
struct PartDecoder {
    /// The file or preset name, for errors.
    let input: String
    /// Relative picture and icon paths are resolved against this folder.
    let baseDirectory: String
    private(set) var partCount = 0

    init(input: String, baseDirectory: String) {
        self.input = input
        self.baseDirectory = baseDirectory
    }

    mutating func part(_ value: JSONValue, path: String, depth: Int = 0) throws(MarkerError) -> Part {
        partCount += 1
        guard partCount <= MarkerLimits.maximumPartCount else {
            throw MarkerError(input: input, path: path, problem: "more than \(MarkerLimits.maximumPartCount) parts")
        }
        guard depth < MarkerLimits.maximumPartDepth else {
            throw MarkerError(input: input, path: path, problem: "parts nested deeper than \(MarkerLimits.maximumPartDepth) levels")
        }
        var reader = try ObjectReader(value, path: path, input: input)
        let type = try reader.string("type") ?? (reader.has("text") ? "text" : "box")
        let kind: Part.Kind
        switch type {
        case "box": kind = .box(try box(&reader, depth: depth))
        case "text": kind = .text(try text(&reader))
        case "picture": kind = .picture(try picture(&reader))
        case "icon": kind = .icon(try icon(&reader))
        case "spacer": kind = .spacer
        default:
            throw reader.error("type", "unknown part type '\(type)' (expected 'box', 'text', 'picture', 'icon' or 'spacer')")
        }
        var part = Part(kind)
        part.name = try reader.string("name")
        let lengths = 0...MarkerLimits.maximumLength
        part.width = try reader.number("width", range: lengths)
        part.height = try reader.number("height", range: lengths)
        part.minWidth = try reader.number("minWidth", range: lengths)
        part.maxWidth = try reader.number("maxWidth", range: lengths)
        part.minHeight = try reader.number("minHeight", range: lengths)
        part.maxHeight = try reader.number("maxHeight", range: lengths)
        part.opacity = try reader.number("opacity", range: 0...1) ?? 1
        part.isContent = try reader.bool("content") ?? false
        part.hit = try reader.bool("hit")
        // "when"/"unless" were applied when the options were filled in.
        try reader.finish(allowed: ["when", "unless"])
        return part
    }

    // MARK: Boxes

    private mutating func box(_ reader: inout ObjectReader, depth: Int) throws(MarkerError) -> Box {
        var box = Box()
        box.layout = try reader.choice("layout", BoxLayout.self) ?? .overlay
        box.gap = try reader.number("gap", range: 0...MarkerLimits.maximumLength) ?? 0
        if let padding = reader.value("padding") { box.padding = try insets(padding, path: reader.place("padding")) }
        box.alignX = try reader.choice("alignX", Alignment.self) ?? .center
        box.alignY = try reader.choice("alignY", Alignment.self) ?? .center
        if let shape = reader.value("shape") { box.shape = try self.shape(shape, path: reader.place("shape")) }
        if let fill = reader.value("fill") { box.fill = try self.fill(fill, path: reader.place("fill")) }
        if let stroke = reader.value("stroke") { box.stroke = try self.stroke(stroke, path: reader.place("stroke")) }
        if let shadow = reader.value("shadow") { box.shadow = try self.shadow(shadow, path: reader.place("shadow")) }
        box.clipsChildren = try reader.bool("clip") ?? false
        if (box.fill != nil || box.stroke != nil || box.shadow != nil) && box.shape == nil { box.shape = .rect }
        let children = try reader.array("children", maximumCount: MarkerLimits.maximumPartCount) ?? []
        for (index, child) in children.enumerated() {
            box.children.append(try part(child, path: reader.place("children[\(index)]"), depth: depth + 1))
        }
        return box
    }

    private func insets(_ value: JSONValue, path: String) throws(MarkerError) -> Insets {
        let range = 0...MarkerLimits.maximumLength
        switch value {
        case .array(let items):
            var numbers: [Double] = []
            for (index, item) in items.enumerated() {
                numbers.append(try JSONValue.number(item, at: "\(path)[\(index)]", input: input, range: range))
            }
            switch numbers.count {
            case 1: return Insets(numbers[0])
            case 2: return Insets(top: numbers[0], right: numbers[1], bottom: numbers[0], left: numbers[1])
            case 4: return Insets(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[3])
            default:
                throw MarkerError(input: input, path: path, problem: "expected 1, 2 or 4 numbers (CSS order: top right bottom left), found \(numbers.count)")
            }
        default:
            return Insets(try JSONValue.number(value, at: path, input: input, range: range))
        }
    }

    private func shape(_ value: JSONValue, path: String) throws(MarkerError) -> Shape {
        if case .string(let name) = value {
            return try shape(.object(["type": .string(name)]), path: path)
        }
        var reader = try ObjectReader(value, path: path, input: input)
        guard let type = try reader.string("type") else { throw reader.error("type", "missing (the shape's name)") }
        let lengths = 0...MarkerLimits.maximumLength
        let shape: Shape
        switch type {
        case "rect": shape = .rect
        case "roundedRect":
            shape = .roundedRect(try radii(&reader))
        case "circle": shape = .circle
        case "ellipse": shape = .ellipse
        case "path":
            guard let data = try reader.string("data") else { throw reader.error("data", "missing (SVG path data)") }
            let parsed = try pathData(data, path: reader.place("data"))
            let bounds = parsed.bounds ?? Rect(x: 0, y: 0, width: 1, height: 1)
            // The path is scaled from its viewBox (by default its bounds) to the part's frame.
            if !reader.has("viewBox") && !(bounds.width > 0 && bounds.height > 0) {
                throw reader.error("data", "the path's bounds are \(bounds.width) x \(bounds.height): without a viewBox "
                                   + "it needs a positive width and height to be scaled to the part")
            }
            shape = .path(parsed, viewBox: try viewBox(&reader, default: bounds))
        case "bubble":
            let radius = try reader.number("radius", range: lengths) ?? 6
            var arrow: Shape.Arrow? = Shape.Arrow()
            if let value = reader.value("arrow") { arrow = try self.arrow(value, path: reader.place("arrow")) }
            shape = .bubble(radius: radius, arrow: arrow)
        case "teardrop":
            shape = .teardrop(point: try reader.number("point", range: lengths) ?? 12)
        default:
            throw reader.error("type", "unknown shape '\(type)' (expected 'rect', 'roundedRect', 'circle', 'ellipse', 'path', 'bubble' or 'teardrop')")
        }
        try reader.finish()
        return shape
    }

    private func radii(_ reader: inout ObjectReader) throws(MarkerError) -> Path.CornerRadii {
        guard let value = reader.value("radius") else { return Path.CornerRadii(4) }
        let range = 0...MarkerLimits.maximumLength
        if case .array(let items) = value {
            guard items.count == 4 else {
                throw reader.error("radius", "expected one number or 4 (top-left, top-right, bottom-right, bottom-left), found \(items.count)")
            }
            var numbers: [Double] = []
            for (index, item) in items.enumerated() {
                numbers.append(try JSONValue.number(item, at: reader.place("radius[\(index)]"), input: input, range: range))
            }
            return Path.CornerRadii(topLeft: numbers[0], topRight: numbers[1], bottomRight: numbers[2], bottomLeft: numbers[3])
        }
        return Path.CornerRadii(try JSONValue.number(value, at: reader.place("radius"), input: input, range: range))
    }

    private func arrow(_ value: JSONValue, path: String) throws(MarkerError) -> Shape.Arrow? {
        if case .string(let text) = value, text == "none" { return nil }
        if case .bool(false) = value { return nil }
        var reader = try ObjectReader(value, path: path, input: input)
        var arrow = Shape.Arrow()
        arrow.side = try reader.choice("side", Shape.Arrow.Side.self) ?? .bottom
        arrow.width = try reader.number("width", range: 0...MarkerLimits.maximumLength) ?? 20
        arrow.height = try reader.number("height", range: 0...MarkerLimits.maximumLength) ?? 10
        if let position = reader.value("position") {
            switch position {
            case .string("none"): return nil
            case .string("center"), .string("middle"): arrow.position = 0.5
            case .string("start"), .string("left"), .string("top"): arrow.position = 0
            case .string("end"), .string("right"), .string("bottom"): arrow.position = 1
            default:
                arrow.position = try JSONValue.number(position, at: reader.place("position"), input: input, range: 0...1)
            }
        }
        try reader.finish()
        return arrow
    }

    private func viewBox(_ reader: inout ObjectReader, default fallback: Rect) throws(MarkerError) -> Rect {
        guard let value = reader.value("viewBox") else { return fallback }
        var numbers: [Double] = []
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() {
                numbers.append(try JSONValue.number(item, at: reader.place("viewBox[\(index)]"), input: input,
                                                    range: -1e6...1e6))
            }
        case .string(let text):
            numbers = text.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        default: break
        }
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else {
            throw reader.error("viewBox", "expected 4 numbers (x, y, width, height) with a positive width and height")
        }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    private func pathData(_ data: String, path: String) throws(MarkerError) -> Path {
        do { return try Path(svgPathData: data) } catch {
            throw MarkerError(input: input, path: path, problem: "bad path data: \(error)")
        }
    }

    // MARK: Paint

    func color(_ value: JSONValue, path: String) throws(MarkerError) -> Color {
        guard case .string(let text) = value else {
            throw MarkerError(input: input, path: path, problem: "expected a colour string, found \(value.typeName)")
        }
        do { return try Color(parsing: text) } catch {
            throw MarkerError(input: input, path: path, problem: error.description)
        }
    }

    private func fill(_ value: JSONValue, path: String) throws(MarkerError) -> FillSpec {
        if case .string = value { return .color(try color(value, path: path)) }
        var reader = try ObjectReader(value, path: path, input: input)
        guard let type = try reader.string("type") else {
            throw reader.error("type", "missing ('linear', 'radial' or 'picture')")
        }
        let fill: FillSpec
        switch type {
        case "color":
            guard let value = reader.value("color") else { throw reader.error("color", "missing") }
            fill = .color(try color(value, path: reader.place("color")))
        case "linear":
            let angle = try reader.number("angle", range: MarkerLimits.gradientAngleRange) ?? 90
            fill = .linear(angle: angle, stops: try stops(&reader))
        case "radial":
            var center = Point(0.5, 0.5)
            if let value = reader.value("center") { center = try point(value, path: reader.place("center")) }
            let radius = try reader.number("radius", range: MarkerLimits.gradientRadiusRange) ?? 0.5
            fill = .radial(center: center, radius: radius, stops: try stops(&reader))
        case "picture":
            guard let file = try reader.string("file") else { throw reader.error("file", "missing (a PNG file)") }
            fill = .picture(.file(resolve(file)), fit: try reader.choice("fit", PictureFit.self) ?? .fill)
        default:
            throw reader.error("type", "unknown fill '\(type)' (expected 'color', 'linear', 'radial' or 'picture')")
        }
        try reader.finish()
        return fill
    }

    private func stops(_ reader: inout ObjectReader) throws(MarkerError) -> [GradientStop] {
        guard let items = try reader.array("stops", maximumCount: MarkerLimits.maximumStopCount), items.count >= 1 else {
            throw reader.error("stops", "missing: a gradient needs at least one colour stop")
        }
        var stops: [GradientStop] = []
        for (index, item) in items.enumerated() {
            let place = reader.place("stops[\(index)]")
            if case .string = item {
                let offset = items.count == 1 ? 0 : Double(index) / Double(items.count - 1)
                stops.append(GradientStop(offset: offset, color: try color(item, path: place)))
                continue
            }
            var stop = try ObjectReader(item, path: place, input: input)
            guard let colorValue = stop.value("color") else { throw stop.error("color", "missing") }
            let offset = try stop.number("offset", range: 0...1)
                ?? (items.count == 1 ? 0 : Double(index) / Double(items.count - 1))
            stops.append(GradientStop(offset: offset, color: try color(colorValue, path: stop.place("color"))))
            try stop.finish()
        }
        return stops
    }

    private func point(_ value: JSONValue, path: String) throws(MarkerError) -> Point {
        guard case .array(let items) = value, items.count == 2 else {
            throw MarkerError(input: input, path: path, problem: "expected [x, y]")
        }
        return Point(try JSONValue.number(items[0], at: "\(path)[0]", input: input, range: MarkerLimits.offsetRange),
                     try JSONValue.number(items[1], at: "\(path)[1]", input: input, range: MarkerLimits.offsetRange))
    }

    private func stroke(_ value: JSONValue, path: String) throws(MarkerError) -> StrokeSpec {
        if case .string = value { return StrokeSpec(color: try color(value, path: path)) }
        var reader = try ObjectReader(value, path: path, input: input)
        guard let colorValue = reader.value("color") else { throw reader.error("color", "missing") }
        var stroke = StrokeSpec(color: try color(colorValue, path: reader.place("color")))
        stroke.width = try reader.number("width", range: MarkerLimits.strokeWidthRange) ?? 1
        if let dashes = try reader.array("dash", maximumCount: MarkerLimits.maximumDashCount) {
            for (index, dash) in dashes.enumerated() {
                stroke.dashes.append(try JSONValue.number(dash, at: reader.place("dash[\(index)]"), input: input, range: 0...MarkerLimits.maximumLength))
            }
        }
        stroke.join = try reader.choice("join", LineJoin.self) ?? .round
        try reader.finish()
        return stroke
    }

    private func shadow(_ value: JSONValue, path: String) throws(MarkerError) -> Shadow {
        var reader = try ObjectReader(value, path: path, input: input)
        var shadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.33), offset: .zero, blurRadius: 3)
        if let colorValue = reader.value("color") { shadow.color = try color(colorValue, path: reader.place("color")) }
        if let offset = reader.value("offset") { shadow.offset = try point(offset, path: reader.place("offset")) }
        shadow.blurRadius = try reader.number("radius", range: MarkerLimits.shadowRadiusRange) ?? 3
        try reader.finish()
        return shadow
    }

    // MARK: Leaves

    private func text(_ reader: inout ObjectReader) throws(MarkerError) -> TextPart {
        let string = try reader.string("text") ?? ""
        guard string.unicodeScalars.count <= MarkerLimits.maximumTextLength else {
            throw reader.error("text", "is \(string.unicodeScalars.count) characters long; at most "
                               + "\(MarkerLimits.maximumTextLength) are allowed")
        }
        var text = TextPart(text: string)
        text.fontSize = try reader.number("fontSize", range: MarkerLimits.fontSizeRange) ?? 12
        if let weight = reader.value("weight") {
            switch weight {
            case .string("regular"), .string("normal"): text.weight = .regular
            case .string("bold"): text.weight = .bold
            default:
                text.weight = .numeric(Int(try JSONValue.number(weight, at: reader.place("weight"), input: input, range: MarkerLimits.fontWeightRange)))
            }
        }
        if let font = reader.value("font") {
            switch font {
            // "Noto Sans Arabic, Noto Sans" as CSS writes a list; "" (a preset's `${font}` left empty) for the defaults.
            case .string(let list):
                let families = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                text.families = families.isEmpty ? nil : families
            case .array(let items):
                var families: [String] = []
                for item in items {
                    guard case .string(let family) = item else { throw reader.error("font", "expected family names") }
                    families.append(family)
                }
                guard !families.isEmpty else {
                    throw reader.error("font", "an empty list: give one or more family names, or leave 'font' out for the defaults")
                }
                text.families = families
            default: throw reader.error("font", "expected a family name or a list of them")
            }
        }
        if let colorValue = reader.value("color"), colorValue != .string("auto") {
            text.color = try color(colorValue, path: reader.place("color"))
        }
        text.alignment = try reader.choice("align", TextAlignment.self) ?? .start
        text.maxLines = try reader.integer("maxLines", range: MarkerLimits.maxLinesRange) ?? 1
        text.letterSpacing = try reader.number("letterSpacing", range: MarkerLimits.letterSpacingRange) ?? 0
        text.lineHeight = try reader.number("lineHeight", range: MarkerLimits.lineHeightRange)
        text.direction = try reader.choice("direction", TextDirection.self) ?? .auto
        if let language = try reader.string("language") {
            guard MarkerLimits.isLanguageTag(language) else {
                throw reader.error("language", "'\(language)' is not a BCP 47 language tag (e.g. 'sr', 'ja', 'zh-Hant', 'ar-EG')")
            }
            text.language = language
        }
        if let items = try reader.array("features", maximumCount: MarkerLimits.maximumFeatureCount) {
            for (index, item) in items.enumerated() {
                let place = "\(reader.place("features"))[\(index)]"
                guard case .string(let setting) = item else {
                    throw MarkerError(input: input, path: place, problem: "expected a feature setting such as 'tnum' or '-liga', found \(item.typeName)")
                }
                guard let feature = TextFeature(setting) else {
                    throw MarkerError(input: input, path: place,
                                      problem: "'\(setting)' is not an OpenType feature setting (a tag of 1–4 letters, "
                                      + "'+tag' or '-tag' to turn it on or off, 'tag=N' for a value: 'tnum', '-liga', 'ss01', 'salt=2')")
                }
                text.features.append(feature)
            }
        }
        if let haloValue = reader.value("halo") {
            var halo = try ObjectReader(haloValue, path: reader.place("halo"), input: input)
            var result = TextHalo()
            if let colorValue = halo.value("color") { result.color = try color(colorValue, path: halo.place("color")) }
            result.width = try halo.number("width", range: MarkerLimits.haloWidthRange) ?? 1
            try halo.finish()
            text.halo = result
        }
        return text
    }

    private func picture(_ reader: inout ObjectReader) throws(MarkerError) -> PicturePart {
        var source = PictureSource.placeholder(.black)
        if let placeholder = reader.value("placeholder") { source = .placeholder(try color(placeholder, path: reader.place("placeholder"))) }
        if let file = try reader.string("file"), !file.isEmpty { source = .file(resolve(file)) }
        var picture = PicturePart(source: source)
        picture.fit = try reader.choice("fit", PictureFit.self) ?? .fill
        if let clip = try reader.string("clip") {
            switch clip {
            case "circle": picture.clipCircle = true
            case "none": break
            default: throw reader.error("clip", "unknown value '\(clip)' (expected 'circle' or 'none')")
            }
        }
        picture.cornerRadius = try reader.number("cornerRadius", range: 0...MarkerLimits.maximumLength) ?? 0
        return picture
    }

    private func icon(_ reader: inout ObjectReader) throws(MarkerError) -> IconPart {
        let file = try reader.string("file"), data = try reader.string("path")
        var icon: IconPart
        switch (file, data) {
        case (let file?, nil): icon = IconPart(source: .file(resolve(file)))
        case (nil, let data?):
            let parsed = try pathData(data, path: reader.place("path"))
            icon = IconPart(source: .path(parsed, viewBox: try viewBox(&reader, default: Rect(x: 0, y: 0, width: 24, height: 24))))
        case (nil, nil): throw reader.error("path", "missing: an icon needs 'file' (an SVG) or 'path' (SVG path data)")
        case (.some, .some): throw reader.error("path", "give either 'file' or 'path', not both")
        }
        if let colorValue = reader.value("color"), colorValue != .string("auto") {
            icon.color = try color(colorValue, path: reader.place("color"))
        }
        return icon
    }

    private func resolve(_ file: String) -> String {
        if file.hasPrefix("/") || baseDirectory.isEmpty { return file }
        return PathName.appending(file, to: baseDirectory)
    }
}
