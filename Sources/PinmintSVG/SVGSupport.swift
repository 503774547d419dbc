/// Which elements and attributes Pinmint draws; everything else is reported
/// once as an `SVGWarning` and skipped (an unknown element with its subtree).
extension SVGBuilder {
    private static let common: Set<String> = ["style", "transform"]
    private static let elementAttributes: [String: Set<String>] = [
        "svg": ["width", "height", "viewBox", "preserveAspectRatio", "x", "y", "baseProfile"],
        "g": [], "defs": [],
        "path": ["d"],
        "rect": ["x", "y", "width", "height", "rx", "ry"],
        "circle": ["cx", "cy", "r"],
        "ellipse": ["cx", "cy", "rx", "ry"],
        "line": ["x1", "y1", "x2", "y2"],
        "polyline": ["points"], "polygon": ["points"],
        "linearGradient": ["x1", "y1", "x2", "y2", "gradientUnits", "gradientTransform", "spreadMethod",
                           "href", "xlink:href"],
        "radialGradient": ["cx", "cy", "r", "fx", "fy", "gradientUnits", "gradientTransform", "spreadMethod",
                           "href", "xlink:href"],
        "stop": ["offset"],
        "clipPath": ["clipPathUnits"],
        "filter": ["x", "y", "width", "height", "filterUnits", "primitiveUnits", "color-interpolation-filters"],
        "feDropShadow": ["dx", "dy", "stdDeviation", "in", "result", "x", "y", "width", "height"],
    ]
    /// Elements that never draw and need no warning.
    private static let descriptiveElements: Set<String> = ["title", "desc", "metadata"]

    /// Attributes skipped without a warning: namespaces, identifiers, editor data.
    static func isIgnoredAttribute(_ name: String) -> Bool {
        name == "id" || name == "class" || name == "version" || name == "xml:space" || name == "xmlns"
            || name.hasPrefix("xmlns:") || name.hasPrefix("data-") || name.hasPrefix("aria-")
            || name.hasPrefix("inkscape:") || name.hasPrefix("sodipodi:")
    }

    /// Warns about every unsupported element and attribute under `element`.
    mutating func checkSupport(_ element: SVGElement) {
        guard let allowed = SVGBuilder.elementAttributes[element.name] else {
            let editorData = element.name.hasPrefix("inkscape:") || element.name.hasPrefix("sodipodi:")
            if !SVGBuilder.descriptiveElements.contains(element.name) && !editorData {
                warn("unsupported element <\(element.name)>")
            }
            return
        }
        for name in element.attributes.keys.sorted()
        where !allowed.contains(name) && !SVGBuilder.common.contains(name) && !SVGStyle.properties.contains(name)
            && !SVGBuilder.isIgnoredAttribute(name) {
            warn("unsupported attribute '\(name)' on <\(element.name)>")
        }
        if let style = element["style"] {
            for (name, _) in SVGStyle.declarations(style) where !SVGStyle.properties.contains(name) {
                warn("unsupported style property '\(name)' on <\(element.name)>")
            }
        }
        for child in element.children { checkSupport(child) }
    }
}
