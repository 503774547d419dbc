import PinmintGeometry

/// The geometry of the basic shapes (SVG 1.1 chapter 9) and `path`.
extension SVGBuilder {
    /// The element's path in its user space; nil for elements that are not
    /// shapes, empty when the shape has zero size (it is then not drawn).
    func path(of element: SVGElement) throws(SVGError) -> Path? {
        var path = Path()
        switch element.name {
        case "path":
            guard let data = element["d"], !data.trimmingWhitespace().isEmpty else { return path }
            do {
                return try Path(svgPathData: data)
            } catch {
                throw self.error(element, "d", "expected \(error.expected) at offset \(error.offset)")
            }
        case "rect":
            let x = try length(element, "x", axis: .horizontal), y = try length(element, "y", axis: .vertical)
            let width = try length(element, "width", axis: .horizontal, nonNegative: true)
            let height = try length(element, "height", axis: .vertical, nonNegative: true)
            guard width > 0, height > 0 else { return path }
            // SVG 1.1 9.2: a missing radius takes the other's value; both are clamped to half the side.
            let rxGiven = element["rx"].flatMap { $0 == "auto" ? nil : $0 } != nil
            let ryGiven = element["ry"].flatMap { $0 == "auto" ? nil : $0 } != nil
            var rx = rxGiven ? try length(element, "rx", axis: .horizontal, nonNegative: true) : 0
            var ry = ryGiven ? try length(element, "ry", axis: .vertical, nonNegative: true) : 0
            if rxGiven && !ryGiven { ry = rx }
            if ryGiven && !rxGiven { rx = ry }
            rx = min(rx, width / 2); ry = min(ry, height / 2)
            let rect = Rect(x: x, y: y, width: width, height: height)
            if rx > 0 && ry > 0 { path.addRoundedRect(rect, radiusX: rx, radiusY: ry) } else { path.addRect(rect) }
        case "circle":
            let cx = try length(element, "cx", axis: .horizontal), cy = try length(element, "cy", axis: .vertical)
            let r = try length(element, "r", axis: .diagonal, nonNegative: true)
            if r > 0 { path.addCircle(center: Point(cx, cy), radius: r) }
        case "ellipse":
            let cx = try length(element, "cx", axis: .horizontal), cy = try length(element, "cy", axis: .vertical)
            var rx = try length(element, "rx", axis: .horizontal, fallback: -1)
            var ry = try length(element, "ry", axis: .vertical, fallback: -1)
            // SVG 2: a missing radius (auto) takes the other's value.
            if element["rx"] == nil || element["rx"] == "auto" { rx = ry }
            if element["ry"] == nil || element["ry"] == "auto" { ry = rx }
            guard rx >= 0 || ry >= 0 else { return path }
            if rx < 0 || ry < 0 {
                throw error(element, rx < 0 ? "rx" : "ry", "must not be negative")
            }
            if rx > 0 && ry > 0 { path.addEllipse(in: Rect(x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry)) }
        case "line":
            path.move(to: Point(try length(element, "x1", axis: .horizontal), try length(element, "y1", axis: .vertical)))
            path.line(to: Point(try length(element, "x2", axis: .horizontal), try length(element, "y2", axis: .vertical)))
        case "polyline", "polygon":
            guard let text = element["points"] else { return path }
            let numbers = try parse(element, "points") { () throws(SVGProblem) in try SVGValueParser.numberList(text) }
            if numbers.count % 2 != 0 {
                throw error(element, "points", "expected pairs of coordinates, found \(numbers.count) numbers")
            }
            guard numbers.count >= 4 else { return path }
            path.move(to: Point(numbers[0], numbers[1]))
            for index in stride(from: 2, to: numbers.count, by: 2) {
                path.line(to: Point(numbers[index], numbers[index + 1]))
            }
            if element.name == "polygon" { path.close() }
        default:
            return nil
        }
        return path
    }
}
