import PinmintGeometry
import PinmintRaster

/// A document resolved for drawing: every attribute parsed, every reference
/// followed, percentages and bounding-box units turned into user units. The
/// renderer walks it without failing on anything but the canvas.
struct SVGRenderNode: Sendable {
    enum Content: Sendable {
        case group([SVGRenderNode])
        case shape(SVGRenderShape)
    }
    var content: Content
    /// The element's `transform`: its user space to its parent's.
    var transform: AffineMap
    /// 0...1; below 1 a group (or a shape with both fill and stroke) is drawn in a layer.
    var opacity: Double
    /// Applied in the element's user space (after `transform`).
    var clip: SVGRenderClip?
    /// From `filter` → `feDropShadow`; on a group it applies to each shape inside.
    var shadow: Shadow?
}

/// A path with its paints, in its element's user space.
struct SVGRenderShape: Sendable {
    var path: Path
    /// nil for `none` (or a paint server that paints nothing).
    var fill: Paint?
    var fillRule: FillRule
    var fillOpacity: Double
    var stroke: Paint?
    var strokeStyle: StrokeStyle
    var strokeOpacity: Double
}

/// A clip region: the union of a `clipPath`'s shapes, already mapped into the
/// referencing element's user space.
struct SVGRenderClip: Sendable {
    var path: Path
    var rule: FillRule
}

extension SVGRenderNode {
    /// The bounds of the node's geometry in its parent's user space (stroke
    /// not included), or nil when it draws nothing. Transformed boxes are
    /// bounded by their four corners.
    var bounds: Rect? {
        let local: Rect?
        switch content {
        case .shape(let shape): local = shape.path.bounds
        case .group(let children):
            local = children.compactMap(\.bounds).reduce(nil as Rect?) { partial, box in partial.map { $0.union(box) } ?? box }
        }
        guard let local else { return nil }
        if transform.isIdentity { return local }
        let corners = [Point(local.minX, local.minY), Point(local.maxX, local.minY),
                       Point(local.maxX, local.maxY), Point(local.minX, local.maxY)].map(transform.apply)
        return corners.dropFirst().reduce(Rect(corner: corners[0], corners[0])) { $0.union(Rect(corner: $1, $1)) }
    }
}
