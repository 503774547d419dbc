import PinmintGeometry
import PinmintRaster

/// The limits a decoded description already meets, checked again for one
/// built in Swift: `Part`'s properties are plain values, so a NaN width, a
/// font size of 10⁶ or parts nested 100,000 deep would otherwise reach the
/// layout, which converts lengths to whole pixels and recurses per level.
extension MarkerDescription {
    /// Checks every number of the part tree against the ranges the JSON
    /// format allows (see docs/markers.md and `MarkerLimits`): lengths
    /// 0...`MarkerLimits.maximumLength` points, opacities and gradient
    /// offsets 0...1, font sizes 1...512, stroke widths 0...256, shadow
    /// radii 0...256, at most `MarkerLimits.maximumPartDepth` levels and
    /// `MarkerLimits.maximumPartCount` parts, texts of at most
    /// `MarkerLimits.maximumTextLength` characters. `MarkerRenderer.render`
    /// calls it first.
    ///
    /// - Throws: `MarkerError` naming `source`, the part's path (e.g.
    ///   `marker.children[1].width`) and the value with its allowed range.
    public func validate() throws(MarkerError) {
        var checker = PartChecker(input: source)
        if case .point(let point) = anchor {
            let range = -MarkerLimits.maximumLength...MarkerLimits.maximumLength
            try checker.number(point.x, range, "anchor[0]")
            try checker.number(point.y, range, "anchor[1]")
        }
        try checker.check(body, depth: 0)
    }
}

/// Walks a part tree with the decoder's ranges (`MarkerLimits`). It runs
/// before every render, so the part's path is kept as child indexes (one
/// small array) and only spelt out in an error.
private struct PartChecker {
    let input: String
    var partCount = 0
    /// The child indexes from the body down to the part being checked.
    var indexes: [Int] = []
    let lengths = MarkerLimits.lengthRange

    init(input: String) {
        self.input = input
    }

    /// `marker.children[0].children[2]`, then `.name` when given.
    func place(_ name: String) -> String {
        var path = "marker"
        for index in indexes { path += ".children[\(index)]" }
        return name.isEmpty ? path : path + "." + name
    }

    func fail(_ name: String, _ problem: String) -> MarkerError {
        MarkerError(input: input, path: place(name), problem: problem)
    }

    func number(_ value: Double, _ range: ClosedRange<Double>, _ name: @autoclosure () -> String) throws(MarkerError) {
        guard value.isFinite, range.contains(value) else {
            throw fail(name(), "\(value.plainDescription) is out of range "
                       + "(\(range.plainDescription))")
        }
    }

    func number(_ value: Double?, _ range: ClosedRange<Double>, _ name: @autoclosure () -> String) throws(MarkerError) {
        if let value { try number(value, range, name()) }
    }

    func point(_ value: Point, _ range: ClosedRange<Double>, _ name: @autoclosure () -> String) throws(MarkerError) {
        try number(value.x, range, name() + "[0]")
        try number(value.y, range, name() + "[1]")
    }

    mutating func check(_ part: Part, depth: Int) throws(MarkerError) {
        partCount += 1
        guard partCount <= MarkerLimits.maximumPartCount else {
            throw fail("", "more than \(MarkerLimits.maximumPartCount) parts")
        }
        guard depth < MarkerLimits.maximumPartDepth else {
            throw fail("", "parts nested deeper than \(MarkerLimits.maximumPartDepth) levels")
        }
        try number(part.width, lengths, "width")
        try number(part.height, lengths, "height")
        try number(part.minWidth, lengths, "minWidth")
        try number(part.maxWidth, lengths, "maxWidth")
        try number(part.minHeight, lengths, "minHeight")
        try number(part.maxHeight, lengths, "maxHeight")
        try number(part.opacity, 0...1, "opacity")
        switch part.kind {
        case .box(let box):
            try number(box.gap, lengths, "gap")
            try number(box.padding.top, lengths, "padding.top")
            try number(box.padding.right, lengths, "padding.right")
            try number(box.padding.bottom, lengths, "padding.bottom")
            try number(box.padding.left, lengths, "padding.left")
            if let shape = box.shape { try check(shape) }
            if let fill = box.fill { try check(fill) }
            if let stroke = box.stroke {
                try number(stroke.width, MarkerLimits.strokeWidthRange, "stroke.width")
                guard stroke.dashes.count <= MarkerLimits.maximumDashCount else {
                    throw fail("stroke.dash", "more than \(MarkerLimits.maximumDashCount) dash lengths")
                }
                for index in stroke.dashes.indices { try number(stroke.dashes[index], lengths, "stroke.dash[\(index)]") }
            }
            if let shadow = box.shadow {
                try number(shadow.blurRadius, MarkerLimits.shadowRadiusRange, "shadow.radius")
                try point(shadow.offset, MarkerLimits.offsetRange, "shadow.offset")
            }
            for index in box.children.indices {
                indexes.append(index)
                try check(box.children[index], depth: depth + 1)
                indexes.removeLast()
            }
        case .text(let text):
            let length = text.text.unicodeScalars.count
            guard length <= MarkerLimits.maximumTextLength else {
                throw fail("text", "is \(length) characters long; at most \(MarkerLimits.maximumTextLength) are allowed")
            }
            try number(text.fontSize, MarkerLimits.fontSizeRange, "fontSize")
            try number(Double(text.weight.value), MarkerLimits.fontWeightRange, "weight")
            try number(Double(text.maxLines), Double(MarkerLimits.maxLinesRange.lowerBound)...Double(MarkerLimits.maxLinesRange.upperBound), "maxLines")
            try number(text.letterSpacing, MarkerLimits.letterSpacingRange, "letterSpacing")
            try number(text.lineHeight, MarkerLimits.lineHeightRange, "lineHeight")
            if let halo = text.halo { try number(halo.width, MarkerLimits.haloWidthRange, "halo.width") }
            if text.families?.isEmpty == true {
                throw fail("font", "an empty list: give one or more family names, or nil for the defaults")
            }
            if let language = text.language, !MarkerLimits.isLanguageTag(language) {
                throw fail("language", "'\(language)' is not a BCP 47 language tag (e.g. 'sr', 'ja', 'zh-Hant')")
            }
            guard text.features.count <= MarkerLimits.maximumFeatureCount else {
                throw fail("features", "has \(text.features.count) settings; at most \(MarkerLimits.maximumFeatureCount) are allowed")
            }
        case .picture(let picture):
            try number(picture.cornerRadius, lengths, "cornerRadius")
        case .icon(let icon):
            if case .path(let iconPath, let viewBox) = icon.source {
                try check(iconPath, viewBox: viewBox, "path", viewBoxName: "viewBox")
            }
        case .spacer:
            break
        }
    }

    func check(_ shape: Shape) throws(MarkerError) {
        switch shape {
        case .rect, .circle, .ellipse:
            break
        case .roundedRect(let radii):
            try number(radii.topLeft, lengths, "shape.radius[0]")
            try number(radii.topRight, lengths, "shape.radius[1]")
            try number(radii.bottomRight, lengths, "shape.radius[2]")
            try number(radii.bottomLeft, lengths, "shape.radius[3]")
        case .path(let shapePath, let viewBox):
            try check(shapePath, viewBox: viewBox, "shape.data", viewBoxName: "shape.viewBox")
        case .bubble(let radius, let arrow):
            try number(radius, lengths, "shape.radius")
            if let arrow {
                try number(arrow.width, lengths, "shape.arrow.width")
                try number(arrow.height, lengths, "shape.arrow.height")
                try number(arrow.position, 0...1, "shape.arrow.position")
            }
        case .teardrop(let point):
            try number(point, lengths, "shape.point")
        }
    }

    func check(_ fill: FillSpec) throws(MarkerError) {
        switch fill {
        case .color, .picture:
            break
        case .linear(let angle, let stops):
            try number(angle, MarkerLimits.gradientAngleRange, "fill.angle")
            try check(stops)
        case .radial(let center, let radius, let stops):
            try point(center, MarkerLimits.offsetRange, "fill.center")
            try number(radius, MarkerLimits.gradientRadiusRange, "fill.radius")
            try check(stops)
        }
    }

    func check(_ stops: [GradientStop]) throws(MarkerError) {
        guard (1...MarkerLimits.maximumStopCount).contains(stops.count) else {
            throw fail("fill.stops", "\(stops.count) stops; 1 to \(MarkerLimits.maximumStopCount) are allowed")
        }
        for index in stops.indices { try number(stops[index].offset, 0...1, "fill.stops[\(index)].offset") }
    }

    /// A path scaled from `viewBox` to the part: finite, with a finite viewBox of positive size.
    /// `viewBoxName` is where the viewBox sits in the JSON format (`shape.viewBox` for a shape, `viewBox` for an icon).
    func check(_ shapePath: Path, viewBox: Rect, _ name: String, viewBoxName: String) throws(MarkerError) {
        guard shapePath.isFinite else { throw fail(name, "the path has a NaN or infinite coordinate") }
        guard viewBox.origin.isFinite, viewBox.width.isFinite, viewBox.height.isFinite,
              viewBox.width > 0, viewBox.height > 0 else {
            let found = [viewBox.minX, viewBox.minY, viewBox.width, viewBox.height].map(\.plainDescription).joined(separator: " ")
            throw fail(viewBoxName, "needs finite numbers and a positive width and height, found \(found)")
        }
    }
}
