import Foundation
import PinmintGeometry

/// A rectangle in whole pixels of the rendered image.
public struct PixelBox: Hashable, Sendable, Codable {
    /// The top-left corner (origin top-left, y down) and the size, pixels.
    public var x, y, width, height: Int
    /// A box at `x`, `y` of `width` × `height` pixels; not checked.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// Whether `other` lies wholly inside this box (touching edges count as
    /// inside; an empty box at an inside position is contained).
    public func contains(_ other: PixelBox) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}

/// What a map client needs to place a marker image, beside its pixels.
///
/// `width`, `height`, `anchor`, `hitBoxes` and `contentBox` are in pixels of
/// the image (origin top-left, y down). The client offsets (`leaflet`,
/// `maplibre`, `mapkit`) are in points, i.e. CSS pixels: pixels ÷ pixelRatio,
/// which is what those APIs take for @2x and @3x images.
public struct MarkerMetadata: Hashable, Sendable {
    /// The image's size, pixels.
    public let width: Int, height: Int
    /// Pixels per point the marker was drawn at (1, 2, 3 …; within
    /// `MarkerLimits.scaleRange`).
    public let pixelRatio: Double
    /// The pixel position that sits on the map coordinate (pointer tip, pin point).
    public let anchor: Point
    /// The parts that are drawn (bodies, pointers, pictures, bare text), as
    /// boxes; transparent margins and shadows are not in any box.
    public let hitBoxes: [PixelBox]
    /// Where the text sits (the part marked `content`, else the first text part).
    public let contentBox: PixelBox?
    /// "default", or the variant's name ("selected").
    public let variant: String
    /// For a marker drawn without text (its content box is empty): how
    /// MapLibre stretches it around a label, and the `text-offset` that puts
    /// its tip on the point then (see `MarkerStretch`). Pixels of the image.
    public internal(set) var stretch: MarkerStretch? = nil

    /// Image size in points: Leaflet's `iconSize`.
    public var pointSize: Size { Size(Double(width) / pixelRatio, Double(height) / pixelRatio) }
    /// The anchor in points from the top-left corner: Leaflet's `iconAnchor`.
    public var pointAnchor: Point { Point(anchor.x / pixelRatio, anchor.y / pixelRatio) }
    /// MapLibre / Mapbox `icon-offset` to use with `icon-anchor: bottom`: moves
    /// the image's bottom centre so that the anchor lands on the coordinate.
    public var iconOffset: Point { Point(pointSize.width / 2 - pointAnchor.x, pointSize.height - pointAnchor.y) }
    /// MapKit's `centerOffset` (points): MKAnnotationView centres the image
    /// on the coordinate, then moves it by this.
    public var centerOffset: Point { Point(pointSize.width / 2 - pointAnchor.x, pointSize.height / 2 - pointAnchor.y) }

    /// The metadata as a JSON object (keys sorted), with `id` and `file` when given.
    public func json(id: String? = nil, file: String? = nil) -> [String: Any] {
        func number(_ value: Double) -> Any {
            let number = JSONNumber(value)
            return number.whole.map { $0 as Any } ?? number.rounded as Any
        }
        func box(_ box: PixelBox) -> [String: Any] { ["x": box.x, "y": box.y, "width": box.width, "height": box.height] }
        var object: [String: Any] = [
            "width": width, "height": height, "pixelRatio": number(pixelRatio),
            "anchor": ["x": number(anchor.x), "y": number(anchor.y)],
            "hitBoxes": hitBoxes.map(box),
            "variant": variant,
            "leaflet": ["iconSize": [number(pointSize.width), number(pointSize.height)],
                        "iconAnchor": [number(pointAnchor.x), number(pointAnchor.y)]],
            "maplibre": ["icon-anchor": "bottom", "icon-offset": [number(iconOffset.x), number(iconOffset.y)]],
            "mapkit": ["centerOffset": ["x": number(centerOffset.x), "y": number(centerOffset.y)]],
        ]
        if let contentBox { object["contentBox"] = box(contentBox) }
        if let stretch {
            object["stretch"] = ["content": stretch.content, "stretchX": stretch.stretchX, "stretchY": stretch.stretchY]
            var fit: [String: Any] = ["text-size": number(stretch.textSize), "text-line-height": number(MarkerStretch.textLineHeight),
                                      "icon-text-fit-padding": stretch.padding.map(number), "icon-offset": [0, 0]]
            if let offset = stretch.offset, let ems = stretch.textOffset {
                fit["offset"] = [number(offset.x), number(offset.y)]
                fit["text-offset"] = [number(ems.x), number(ems.y)]
            }
            var maplibre = object["maplibre"] as! [String: Any]
            maplibre["icon-text-fit"] = fit
            object["maplibre"] = maplibre
        }
        if let id { object["id"] = id }
        if let file { object["file"] = file }
        return object
    }

    /// JSON text of `json(id:file:)`: pretty-printed, keys sorted, so that
    /// the same marker always gives the same bytes.
    public static func jsonText(_ objects: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
