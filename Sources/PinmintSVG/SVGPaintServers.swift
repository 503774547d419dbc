import PinmintGeometry
import PinmintRaster

/// Gradients, clip paths and drop-shadow filters: the elements other
/// elements reference with `url(#id)`.
extension SVGBuilder {
    /// The paint for a `fill` or `stroke`, or nil for none.
    mutating func paint(_ specification: SVGPaintSpecification, style: SVGStyle, bounds: Rect?,
                        for element: SVGElement, attribute: String) throws(SVGError) -> Paint? {
        switch specification {
        case .none: return nil
        case .color(let color): return .solid(color)
        case .currentColor: return .solid(style.color)
        case .reference(let id, let fallback):
            if let server = elementsByID[id], server.name == "linearGradient" || server.name == "radialGradient" {
                return try gradient(server, bounds: bounds)
            }
            if let fallback { return try paint(fallback, style: style, bounds: bounds, for: element, attribute: attribute) }
            warn("\(attribute) on <\(element.name)> refers to a missing gradient #\(id); nothing is painted")
            return nil
        }
    }

    // MARK: Gradients

    /// The gradient's `href` chain: the element first, then those it
    /// inherits from, at most `SVGLimits.maximumGradientChain` long. A chain
    /// that comes back to one of its gradients ends there, with a warning.
    private mutating func chain(_ gradient: SVGElement) throws(SVGError) -> [SVGElement] {
        var chain = [gradient]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(gradient)]
        var current = gradient
        while let href = current["href"] ?? current["xlink:href"], href.hasPrefix("#"),
              let next = elementsByID[String(href.dropFirst())],
              next.name == "linearGradient" || next.name == "radialGradient" {
            guard seen.insert(ObjectIdentifier(next)).inserted else {
                warn("\(current.location("href")): the href chain of gradient \(gradient["id"].map { "#" + $0 } ?? "") "
                     + "comes back to \(href); the loop is ignored")
                break
            }
            guard chain.count < SVGLimits.maximumGradientChain else {
                throw error(gradient, "href", "the href chain is longer than \(SVGLimits.maximumGradientChain) gradients")
            }
            chain.append(next)
            current = next
        }
        return chain
    }

    /// The attributes a gradient inherits through `href`.
    private static let inheritedAttributes = ["gradientUnits", "spreadMethod", "gradientTransform",
                                              "x1", "y1", "x2", "y2", "cx", "cy", "r", "fx", "fy"]

    /// The gradient with its chain resolved, once per document: each shape
    /// that paints with it reuses the result (a chain walked again for every
    /// shape took 200 shapes on a 30,000-long chain tens of seconds).
    private mutating func resolvedGradient(_ gradient: SVGElement) throws(SVGError) -> SVGResolvedGradient {
        if let resolved = resolvedGradients[ObjectIdentifier(gradient)] { return resolved }
        let chain = try chain(gradient)
        var attributes: [String: (SVGElement, String)] = [:]
        for attribute in SVGBuilder.inheritedAttributes {
            if let element = chain.first(where: { $0[attribute] != nil }) { attributes[attribute] = (element, element[attribute]!) }
        }
        let stopOwner = chain.first { $0.children.contains { $0.name == "stop" } }
        let stops = try stopOwner.map { owner throws(SVGError) in try self.stops(of: owner) } ?? []
        let resolved = SVGResolvedGradient(attributes: attributes, stops: stops)
        resolvedGradients[ObjectIdentifier(gradient)] = resolved
        return resolved
    }

    /// A gradient paint for a shape with `bounds`; nil when it paints nothing
    /// (no stops, or bounding-box units on a shape with no area).
    mutating func gradient(_ gradient: SVGElement, bounds: Rect?) throws(SVGError) -> Paint? {
        let resolved = try resolvedGradient(gradient)
        /// The first element in the chain that sets the attribute, and its value.
        func lookup(_ attribute: String) -> (SVGElement, String)? { resolved.attributes[attribute] }
        let stops = resolved.stops
        guard let firstStop = stops.first else { return nil }
        if stops.count == 1 { return .solid(firstStop.color) }

        var userSpace = false
        if let (element, units) = lookup("gradientUnits") {
            switch units {
            case "userSpaceOnUse": userSpace = true
            case "objectBoundingBox": userSpace = false
            default: throw error(element, "gradientUnits", "expected userSpaceOnUse or objectBoundingBox, found '\(units)'")
            }
        }
        var spread = SpreadMethod.pad
        if let (element, text) = lookup("spreadMethod") {
            guard let method = SpreadMethod(rawValue: text) else {
                throw error(element, "spreadMethod", "expected pad, reflect or repeat, found '\(text)'")
            }
            spread = method
        }
        var transform = AffineMap.identity
        if let (element, _) = lookup("gradientTransform") { transform = try self.transform(element, "gradientTransform") }
        if !userSpace {
            // Bounding-box units on a shape with no width or height paint nothing (SVG 1.1 13.2.2).
            guard let bounds, bounds.width > 0, bounds.height > 0 else { return nil }
            transform = transform.concatenating(AffineMap(a: bounds.width, b: 0, c: 0, d: bounds.height,
                                                                tx: bounds.minX, ty: bounds.minY))
        }
        /// A coordinate: a fraction of the box in bounding-box units, else a user-space length.
        func coordinate(_ attribute: String, axis: SVGAxis, default fallback: String) throws(SVGError) -> Double {
            let (element, text) = lookup(attribute) ?? (gradient, fallback)
            return try parse(element, attribute) { () throws(SVGProblem) in
                if userSpace { return try SVGValueParser.length(text, axis: axis, viewport: viewport) }
                let (value, unit) = try SVGValueParser.number(withUnit: text)
                switch unit {
                case "": return value
                case "%": return value / 100
                default: throw SVGProblem("units are not allowed in objectBoundingBox units, found '\(text)'")
                }
            }
        }
        if gradient.name == "linearGradient" {
            let start = Point(try coordinate("x1", axis: .horizontal, default: "0%"),
                              try coordinate("y1", axis: .vertical, default: "0%"))
            let end = Point(try coordinate("x2", axis: .horizontal, default: "100%"),
                            try coordinate("y2", axis: .vertical, default: "0%"))
            return .linearGradient(LinearGradient(start: start, end: end, stops: stops, spread: spread,
                                                  transform: transform))
        }
        let center = Point(try coordinate("cx", axis: .horizontal, default: "50%"),
                           try coordinate("cy", axis: .vertical, default: "50%"))
        let radius = try coordinate("r", axis: .diagonal, default: "50%")
        if radius < 0, let (element, _) = lookup("r") { throw error(element, "r", "must not be negative") }
        let focus = Point(lookup("fx") == nil ? center.x : try coordinate("fx", axis: .horizontal, default: "50%"),
                          lookup("fy") == nil ? center.y : try coordinate("fy", axis: .vertical, default: "50%"))
        guard radius > 0 else { return .solid(stops[stops.count - 1].color) }
        return .radialGradient(RadialGradient(center: center, radius: radius, focus: focus, stops: stops,
                                              spread: spread, transform: transform))
    }

    /// The `stop` children: offset (number or percentage), stop-color and
    /// stop-opacity, from attributes or `style`.
    private func stops(of gradient: SVGElement) throws(SVGError) -> [GradientStop] {
        var stops: [GradientStop] = []
        for stop in gradient.children where stop.name == "stop" {
            let properties = SVGStyle.specifiedProperties(of: stop)
            let offset = try stop["offset"].map { text throws(SVGError) in
                try parse(stop, "offset") { () throws(SVGProblem) in try SVGValueParser.fraction(text) }
            } ?? 0
            var color = Color.black
            if let text = properties["stop-color"] {
                let source = text == "currentColor" ? properties["color"] ?? "black" : text
                do { color = try SVGStyle.color(source, attribute: "stop-color") } catch {
                    throw self.error(stop, error.attribute, error.message)
                }
            }
            if let text = properties["stop-opacity"] {
                color = color.withOpacity(try parse(stop, "stop-opacity") { () throws(SVGProblem) in
                    try SVGValueParser.fraction(text)
                })
            }
            // Offsets never decrease (SVG 1.1 13.2.4).
            stops.append(GradientStop(offset: max(offset, stops.last?.offset ?? 0), color: color))
        }
        return stops
    }

    // MARK: Clip paths

    /// The clip for `clip-path="url(#id)"` on `element`, in the element's user
    /// space; `bounds` is the element's for clipPathUnits="objectBoundingBox".
    mutating func clip(_ reference: String, for element: SVGElement, bounds: Rect?) throws(SVGError) -> SVGRenderClip? {
        guard let (id, _) = SVGValueParser.urlReference(reference) else {
            throw error(element, "clip-path", "expected url(#id) or none, found '\(reference)'")
        }
        guard let clipPath = elementsByID[id], clipPath.name == "clipPath" else {
            warn("clip-path on <\(element.name)> refers to a missing clipPath #\(id); it is not clipped")
            return nil
        }
        var outer = try transform(clipPath)
        switch clipPath["clipPathUnits"] ?? "userSpaceOnUse" {
        case "userSpaceOnUse": break
        case "objectBoundingBox":
            guard let bounds, bounds.width > 0, bounds.height > 0 else {
                return SVGRenderClip(path: Path(), rule: .nonZero)
            }
            outer = outer.concatenating(AffineMap(a: bounds.width, b: 0, c: 0, d: bounds.height,
                                                        tx: bounds.minX, ty: bounds.minY))
        case let units:
            throw error(clipPath, "clipPathUnits", "expected userSpaceOnUse or objectBoundingBox, found '\(units)'")
        }
        if SVGStyle.specifiedProperties(of: clipPath)["clip-path"] != nil {
            warn("clip-path on <clipPath> is not supported")
        }
        var base = SVGStyle()
        do { try base.apply(SVGStyle.specifiedProperties(of: clipPath), viewport: viewport) } catch {
            throw self.error(clipPath, error.attribute, error.message)
        }
        var union = Path()
        var rules: [FillRule] = []
        for child in clipPath.children where SVGBuilder.shapeNames.contains(child.name) {
            let properties = SVGStyle.specifiedProperties(of: child)
            if properties["display"] == "none" { continue }
            var style = base
            do { try style.apply(properties, viewport: viewport) } catch {
                throw self.error(child, error.attribute, error.message)
            }
            guard let path = try path(of: child), !path.isEmpty else { continue }
            union.append(path.transformed(by: try transform(child)))
            rules.append(style.clipRule)
        }
        // One child keeps its rule exactly; several are united with non-zero
        // winding unless all are even-odd (an approximation where they overlap).
        let rule: FillRule = !rules.isEmpty && rules.allSatisfy { $0 == .evenOdd } ? .evenOdd : .nonZero
        return SVGRenderClip(path: union.transformed(by: outer), rule: rule)
    }

    // MARK: Filters

    /// The shadow of `filter="url(#id)"`: a filter holding one `feDropShadow`.
    /// Anything else is ignored with a warning.
    mutating func shadow(_ reference: String, for element: SVGElement) throws(SVGError) -> Shadow? {
        guard let (id, _) = SVGValueParser.urlReference(reference) else {
            throw error(element, "filter", "expected url(#id) or none, found '\(reference)'")
        }
        guard let filter = elementsByID[id], filter.name == "filter" else {
            warn("filter on <\(element.name)> refers to a missing filter #\(id); it is ignored")
            return nil
        }
        guard filter.children.count == 1, let drop = filter.children.first, drop.name == "feDropShadow" else {
            warn("filter #\(id) is not a single <feDropShadow>; it is ignored")
            return nil
        }
        func number(_ attribute: String, _ fallback: Double) throws(SVGError) -> Double {
            guard let text = drop[attribute] else { return fallback }
            return try parse(drop, attribute) { () throws(SVGProblem) in
                let values = try SVGValueParser.numberList(text)
                guard let first = values.first, values.count <= 2 else { throw SVGProblem("expected one or two numbers") }
                return first
            }
        }
        let properties = SVGStyle.specifiedProperties(of: drop)
        var color = Color.black
        if let text = properties["flood-color"] {
            do { color = try SVGStyle.color(text, attribute: "flood-color") } catch {
                throw self.error(drop, error.attribute, error.message)
            }
        }
        if let text = properties["flood-opacity"] {
            color = color.withOpacity(try parse(drop, "flood-opacity") { () throws(SVGProblem) in
                try SVGValueParser.fraction(text)
            })
        }
        // SVG filter effects defaults: dx = dy = stdDeviation = 2.
        let deviation = try number("stdDeviation", 2)
        guard deviation >= 0 else { throw error(drop, "stdDeviation", "must not be negative") }
        guard deviation <= SVGLimits.maximumShadowLength else {
            throw error(drop, "stdDeviation", "\(deviation) is over \(SVGLimits.maximumShadowLength)")
        }
        let dx = try number("dx", 2), dy = try number("dy", 2)
        for (name, value) in [("dx", dx), ("dy", dy)] where !(abs(value) <= SVGLimits.maximumShadowLength) {
            throw error(drop, name, "\(value) is beyond ±\(SVGLimits.maximumShadowLength)")
        }
        return Shadow(color: color, offset: Point(dx, dy), blurRadius: deviation)
    }
}

/// A gradient element with its `href` chain resolved (see `SVGBuilder.resolvedGradient`).
struct SVGResolvedGradient {
    /// Each inherited attribute: the element that sets it first in the chain, and its value.
    let attributes: [String: (SVGElement, String)]
    let stops: [GradientStop]
}
