import PinmintGeometry
import PinmintRaster

/// A `fill` or `stroke` value before it meets the shape it paints.
enum SVGPaintSpecification: Sendable {
    case none
    case color(Color)
    case currentColor
    /// A gradient reference, with the paint to use when it is missing.
    indirect case reference(id: String, fallback: SVGPaintSpecification?)
}

/// The inherited properties (CSS cascade) in force on an element.
/// Non-inherited ones (`opacity`, `clip-path`, `filter`, `display`) are read
/// from each element directly.
struct SVGStyle: Sendable {
    var fill: SVGPaintSpecification = .color(.black)
    var fillOpacity = 1.0
    var fillRule = FillRule.nonZero
    var stroke: SVGPaintSpecification = .none
    var strokeOpacity = 1.0
    var strokeWidth = 1.0
    var lineCap = LineCap.butt
    var lineJoin = LineJoin.miter
    var miterLimit = 4.0
    var dashes: [Double] = []
    var dashOffset = 0.0
    var clipRule = FillRule.nonZero
    var color = Color.black
    var isVisible = true

    /// Properties, settable as presentation attributes or in `style=""`.
    static let inheritedProperties: Set<String> = [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-opacity", "stroke-width", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "clip-rule", "color",
        "visibility",
    ]
    static let otherProperties: Set<String> = [
        "opacity", "clip-path", "filter", "display", "stop-color", "stop-opacity", "flood-color", "flood-opacity",
    ]
    static let properties = inheritedProperties.union(otherProperties)

    /// The declarations of a `style` attribute, in order: `fill: red; stroke: blue`.
    static func declarations(_ style: String) -> [(name: String, value: String)] {
        style.split(separator: ";").compactMap { declaration in
            guard let colon = declaration.firstIndex(of: ":") else { return nil }
            let name = declaration[..<colon].trimmingWhitespace().lowercased()
            var value = declaration[declaration.index(after: colon)...].trimmingWhitespace()
            if value.hasSuffix("!important") { value = String(value.dropLast(10)).trimmingWhitespace() }
            return name.isEmpty ? nil : (name, value)
        }
    }

    /// The element's supported properties: presentation attributes, overridden
    /// by `style` declarations (CSS specificity). Values of `inherit` are dropped.
    static func specifiedProperties(of element: SVGElement) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in element.attributes where properties.contains(name) { result[name] = value.trimmingWhitespace() }
        if let style = element["style"] {
            for (name, value) in declarations(style) where properties.contains(name) { result[name] = value }
        }
        return result.filter { $0.value != "inherit" }
    }

    /// Applies the inherited properties among `specified`, in the order that
    /// makes `currentColor` see this element's `color`.
    mutating func apply(_ specified: [String: String], viewport: (width: Double, height: Double))
        throws(SVGAttributeProblem) {
        if let value = specified["color"] { color = try SVGStyle.color(value, attribute: "color") }
        for (name, value) in specified.sorted(by: { $0.key < $1.key }) {
            do throws(SVGProblem) {
                switch name {
                case "fill": fill = try SVGStyle.paint(value)
                case "stroke": stroke = try SVGStyle.paint(value)
                case "fill-opacity": fillOpacity = try SVGValueParser.fraction(value)
                case "stroke-opacity": strokeOpacity = try SVGValueParser.fraction(value)
                case "fill-rule": fillRule = try SVGStyle.fillRule(value)
                case "clip-rule": clipRule = try SVGStyle.fillRule(value)
                case "stroke-width":
                    strokeWidth = try SVGValueParser.length(value, axis: .diagonal, viewport: viewport)
                    guard strokeWidth >= 0 else { throw SVGProblem("must not be negative, found '\(value)'") }
                case "stroke-linecap":
                    guard let cap = LineCap(rawValue: value) else {
                        throw SVGProblem("expected butt, round or square, found '\(value)'")
                    }
                    lineCap = cap
                case "stroke-linejoin":
                    guard let join = LineJoin(rawValue: value) else {
                        throw SVGProblem("expected miter, round or bevel, found '\(value)'")
                    }
                    lineJoin = join
                case "stroke-miterlimit":
                    miterLimit = try SVGValueParser.number(value)
                    guard miterLimit >= 1 else { throw SVGProblem("must be at least 1, found '\(value)'") }
                case "stroke-dasharray":
                    if value == "none" {
                        dashes = []
                    } else {
                        var lengths: [Double] = []
                        for item in value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" }) {
                            let length = try SVGValueParser.length(String(item), axis: .diagonal, viewport: viewport)
                            guard length >= 0 else { throw SVGProblem("dash lengths must not be negative") }
                            lengths.append(length)
                        }
                        dashes = lengths
                    }
                case "stroke-dashoffset":
                    dashOffset = try SVGValueParser.length(value, axis: .diagonal, viewport: viewport)
                case "visibility": isVisible = value == "visible"
                default: break
                }
            } catch {
                throw SVGAttributeProblem(attribute: name, message: error.message)
            }
        }
    }

    static func fillRule(_ value: String) throws(SVGProblem) -> FillRule {
        guard let rule = FillRule(rawValue: value) else { throw SVGProblem("expected nonzero or evenodd, found '\(value)'") }
        return rule
    }

    static func color(_ value: String, attribute: String) throws(SVGAttributeProblem) -> Color {
        do {
            return try Color(parsing: value)
        } catch {
            throw SVGAttributeProblem(attribute: attribute, message: "bad colour '\(value)': \(error.problem)")
        }
    }

    static func paint(_ value: String) throws(SVGProblem) -> SVGPaintSpecification {
        switch value {
        case "none": return .none
        case "currentColor", "currentcolor": return .currentColor
        default:
            if let (id, fallbackText) = SVGValueParser.urlReference(value) {
                return .reference(id: id, fallback: fallbackText.isEmpty ? nil : try paint(fallbackText))
            }
            do {
                return .color(try Color(parsing: value))
            } catch {
                throw SVGProblem("bad colour '\(value)': \(error.problem)")
            }
        }
    }
}

/// A problem with one attribute, before the element's location is attached.
struct SVGAttributeProblem: Error {
    let attribute: String
    let message: String
}
