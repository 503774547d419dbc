import PinmintGeometry
import PinmintRaster

/// Turns the raw element tree into the render tree, collecting warnings.
/// Every problem becomes an `SVGError` naming the element, its line and
/// the attribute.
struct SVGBuilder {
    let file: String?
    /// The size percentages refer to: the viewBox, else width and height.
    let viewport: (width: Double, height: Double)
    var elementsByID: [String: SVGElement] = [:]
    /// Gradients resolved so far, by element.
    var resolvedGradients: [ObjectIdentifier: SVGResolvedGradient] = [:]
    private(set) var warnings: [SVGWarning] = []
    private var warned: Set<SVGWarning> = []

    init(file: String?, viewport: (width: Double, height: Double), root: SVGElement) {
        self.file = file
        self.viewport = viewport
        collectIdentifiers(root)
    }

    private mutating func collectIdentifiers(_ element: SVGElement) {
        if let id = element["id"], elementsByID[id] == nil { elementsByID[id] = element }
        for child in element.children { collectIdentifiers(child) }
    }

    mutating func warn(_ message: String) {
        let warning = SVGWarning(message)
        if warned.insert(warning).inserted { warnings.append(warning) }
    }

    func error(_ element: SVGElement, _ attribute: String?, _ message: String) -> SVGError {
        SVGError(file: file, problem: "\(element.location(attribute)): \(message)")
    }

    // MARK: Attribute helpers

    /// Runs an attribute parser, naming the element and attribute in its error.
    func parse<T>(_ element: SVGElement, _ attribute: String, _ body: () throws(SVGProblem) -> T) throws(SVGError) -> T {
        do { return try body() } catch { throw self.error(element, attribute, error.message) }
    }

    /// A length attribute in user units, or `fallback` when it is absent.
    func length(_ element: SVGElement, _ attribute: String, axis: SVGAxis, fallback: Double = 0,
                nonNegative: Bool = false) throws(SVGError) -> Double {
        guard let text = element[attribute] else { return fallback }
        let value = try parse(element, attribute) { () throws(SVGProblem) in
            try SVGValueParser.length(text, axis: axis, viewport: viewport)
        }
        if nonNegative && value < 0 { throw error(element, attribute, "must not be negative, found '\(text)'") }
        return value
    }

    func transform(_ element: SVGElement, _ attribute: String = "transform") throws(SVGError) -> AffineMap {
        guard let text = element[attribute] else { return .identity }
        return try parse(element, attribute) { () throws(SVGProblem) in try SVGTransformParser.parse(text) }
    }

    // MARK: Tree

    static let shapeNames: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"]

    /// The node for the root `svg` element (drawn like a group).
    mutating func buildRoot(_ root: SVGElement) throws(SVGError) -> SVGRenderNode {
        try build(root, parent: SVGStyle(), inheritedShadowWarning: false)
            ?? SVGRenderNode(content: .group([]), transform: .identity, opacity: 1, clip: nil, shadow: nil)
    }

    /// The node for `element`, or nil when it draws nothing by itself
    /// (definitions, unsupported elements, `display: none`).
    mutating func build(_ element: SVGElement, parent: SVGStyle, inheritedShadowWarning: Bool)
        throws(SVGError) -> SVGRenderNode? {
        let isGroup = element.name == "g" || element.name == "svg"
        guard isGroup || SVGBuilder.shapeNames.contains(element.name) else { return nil }
        let specified = SVGStyle.specifiedProperties(of: element)
        if specified["display"] == "none" { return nil }
        var style = parent
        do { try style.apply(specified, viewport: viewport) } catch {
            throw self.error(element, error.attribute, error.message)
        }
        var opacity = 1.0
        if let text = specified["opacity"] {
            opacity = try parse(element, "opacity") { () throws(SVGProblem) in try SVGValueParser.fraction(text) }
        }
        let transform = try transform(element)
        var shadow: Shadow?
        if let text = specified["filter"], text != "none" { shadow = try self.shadow(text, for: element) }

        var node: SVGRenderNode
        if isGroup {
            if shadow != nil { warn("filter on <\(element.name)> is applied to each shape inside it separately") }
            var children: [SVGRenderNode] = []
            for child in element.children {
                if let built = try build(child, parent: style, inheritedShadowWarning: false) { children.append(built) }
            }
            node = SVGRenderNode(content: .group(children), transform: transform, opacity: opacity, clip: nil,
                                 shadow: shadow)
        } else {
            guard let shape = try shape(element, style: style) else { return nil }
            node = SVGRenderNode(content: .shape(shape), transform: transform, opacity: opacity, clip: nil,
                                 shadow: shadow)
        }
        if let text = specified["clip-path"], text != "none" {
            var local = node
            local.transform = .identity
            node.clip = try clip(text, for: element, bounds: local.bounds)
        }
        return node
    }

    /// A shape element's path and paints; nil when it has no geometry.
    mutating func shape(_ element: SVGElement, style: SVGStyle) throws(SVGError) -> SVGRenderShape? {
        guard let path = try path(of: element), !path.isEmpty else { return nil }
        let bounds = path.bounds
        var fill: Paint?, stroke: Paint?
        if style.isVisible {
            fill = try paint(style.fill, style: style, bounds: bounds, for: element, attribute: "fill")
            if style.strokeWidth > 0 {
                stroke = try paint(style.stroke, style: style, bounds: bounds, for: element, attribute: "stroke")
            }
        }
        let strokeStyle = StrokeStyle(width: style.strokeWidth, cap: style.lineCap, join: style.lineJoin,
                                      miterLimit: style.miterLimit, dashes: style.dashes, dashOffset: style.dashOffset)
        return SVGRenderShape(path: path, fill: fill, fillRule: style.fillRule, fillOpacity: style.fillOpacity,
                              stroke: stroke, strokeStyle: strokeStyle, strokeOpacity: style.strokeOpacity)
    }
}
