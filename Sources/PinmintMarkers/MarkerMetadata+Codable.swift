import Foundation
import PinmintGeometry

/// A JSON object key spelt at run time (the metadata's keys hold dashes:
/// `icon-offset`, `text-size`).
struct JSONKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The metadata as the `pinmint render` command writes it beside a PNG.
///
/// Encoding gives the keys and numbers of `json(id:file:)` (without `id` and
/// `file`; see `MarkerRecord` for those): numbers rounded to 1/1000 and
/// whole numbers written without a fraction, the client offsets (`leaflet`,
/// `maplibre`, `mapkit`) worked out from the pixels. With
/// `MarkerMetadata.encoder` the bytes are those of
/// `MarkerMetadata.jsonText(json())` minus its final newline.
///
/// Decoding reads `width`, `height`, `pixelRatio`, `anchor`, `hitBoxes`,
/// `contentBox`, `variant` and `stretch` (with `maplibre.icon-text-fit`);
/// the client offsets are derived values and are not read back. Numbers
/// come back as written, i.e. rounded to 1/1000.
extension MarkerMetadata: Codable {
    /// A `JSONEncoder` set up as `jsonText(_:)` writes: pretty-printed,
    /// keys sorted, slashes not escaped.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Writes the metadata's JSON object; see the extension's comment for the keys.
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(width, forKey: JSONKey("width"))
        try object.encode(height, forKey: JSONKey("height"))
        try object.encode(JSONNumber(pixelRatio), forKey: JSONKey("pixelRatio"))
        try object.encode(JSONPoint(anchor), forKey: JSONKey("anchor"))
        try object.encode(hitBoxes, forKey: JSONKey("hitBoxes"))
        try object.encode(variant, forKey: JSONKey("variant"))
        if let contentBox { try object.encode(contentBox, forKey: JSONKey("contentBox")) }

        var leaflet = object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("leaflet"))
        try leaflet.encode([JSONNumber(pointSize.width), JSONNumber(pointSize.height)], forKey: JSONKey("iconSize"))
        try leaflet.encode([JSONNumber(pointAnchor.x), JSONNumber(pointAnchor.y)], forKey: JSONKey("iconAnchor"))

        var maplibre = object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("maplibre"))
        try maplibre.encode("bottom", forKey: JSONKey("icon-anchor"))
        try maplibre.encode([JSONNumber(iconOffset.x), JSONNumber(iconOffset.y)], forKey: JSONKey("icon-offset"))

        var mapkit = object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("mapkit"))
        try mapkit.encode(JSONPoint(centerOffset), forKey: JSONKey("centerOffset"))

        guard let stretch else { return }
        var runs = object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("stretch"))
        try runs.encode(stretch.content, forKey: JSONKey("content"))
        try runs.encode(stretch.stretchX, forKey: JSONKey("stretchX"))
        try runs.encode(stretch.stretchY, forKey: JSONKey("stretchY"))
        var fit = maplibre.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("icon-text-fit"))
        try fit.encode(JSONNumber(stretch.textSize), forKey: JSONKey("text-size"))
        try fit.encode(JSONNumber(MarkerStretch.textLineHeight), forKey: JSONKey("text-line-height"))
        try fit.encode(stretch.padding.map(JSONNumber.init), forKey: JSONKey("icon-text-fit-padding"))
        try fit.encode([0, 0], forKey: JSONKey("icon-offset"))
        if let offset = stretch.offset, let ems = stretch.textOffset {
            try fit.encode([JSONNumber(offset.x), JSONNumber(offset.y)], forKey: JSONKey("offset"))
            try fit.encode([JSONNumber(ems.x), JSONNumber(ems.y)], forKey: JSONKey("text-offset"))
        }
    }

    /// Reads what `encode(to:)` writes (and what `pinmint render` wrote);
    /// throws `DecodingError` for a missing or mistyped field, or for a
    /// `content`, `offset`, padding or run with the wrong number of elements.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: JSONKey.self)
        width = try object.decode(Int.self, forKey: JSONKey("width"))
        height = try object.decode(Int.self, forKey: JSONKey("height"))
        pixelRatio = try object.decode(Double.self, forKey: JSONKey("pixelRatio"))
        anchor = try object.decode(JSONPoint.self, forKey: JSONKey("anchor")).point
        hitBoxes = try object.decode([PixelBox].self, forKey: JSONKey("hitBoxes"))
        contentBox = try object.decodeIfPresent(PixelBox.self, forKey: JSONKey("contentBox"))
        variant = try object.decode(String.self, forKey: JSONKey("variant"))
        guard object.contains(JSONKey("stretch")) else { return }
        let runs = try object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("stretch"))
        let fit = try object.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("maplibre"))
            .nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey("icon-text-fit"))
        /// An array of `count` elements at `key`, or a `DecodingError` naming the count found.
        func array<Element: Decodable>(_ type: [Element].Type, _ key: String, in container: KeyedDecodingContainer<JSONKey>,
                                       count: Int, shape: String) throws -> [Element]? {
            guard let values = try container.decodeIfPresent(type, forKey: JSONKey(key)) else { return nil }
            guard values.count == count else {
                throw DecodingError.dataCorruptedError(forKey: JSONKey(key), in: container,
                                                       debugDescription: "expected \(shape), found \(values.count) elements")
            }
            return values
        }
        func required<Value>(_ value: Value?, _ key: String, in container: KeyedDecodingContainer<JSONKey>) throws -> Value {
            guard let value else {
                throw DecodingError.keyNotFound(JSONKey(key), .init(codingPath: container.codingPath, debugDescription: "missing '\(key)'"))
            }
            return value
        }
        func runList(_ key: String) throws -> [[Int]] {
            let list = try runs.decode([[Int]].self, forKey: JSONKey(key))
            guard list.allSatisfy({ $0.count == 2 }) else {
                throw DecodingError.dataCorruptedError(forKey: JSONKey(key), in: runs, debugDescription: "expected [[from, to], …]")
            }
            return list
        }
        let offset = try array([Double].self, "offset", in: fit, count: 2, shape: "[x, y]")
        let content = try array([Int].self, "content", in: runs, count: 4, shape: "[x1, y1, x2, y2]")
        let padding = try array([Double].self, "icon-text-fit-padding", in: fit, count: 4, shape: "[top, right, bottom, left]")
        stretch = MarkerStretch(content: try required(content, "content", in: runs),
                                stretchX: try runList("stretchX"), stretchY: try runList("stretchY"),
                                textSize: try fit.decode(Double.self, forKey: JSONKey("text-size")),
                                padding: try required(padding, "icon-text-fit-padding", in: fit),
                                offset: offset.map { Point($0[0], $0[1]) })
    }
}

/// One marker's entry as `pinmint render` writes it: the metadata's keys
/// plus `id` and `file` when they are known (`json(id:file:)`), in one object.
public struct MarkerRecord: Codable, Hashable, Sendable {
    /// The marker's id (`--id`, or the batch row's), if any.
    public var id: String?
    /// The PNG's file name (no folder), if it was written to a file.
    public var file: String?
    /// Everything else in the object.
    public var metadata: MarkerMetadata

    /// A record of `metadata` with the given `id` and `file`.
    public init(id: String? = nil, file: String? = nil, metadata: MarkerMetadata) {
        self.id = id; self.file = file; self.metadata = metadata
    }

    /// Writes the metadata's keys, then `id` and `file` into the same object.
    public func encode(to encoder: any Encoder) throws {
        try metadata.encode(to: encoder)
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encodeIfPresent(id, forKey: JSONKey("id"))
        try object.encodeIfPresent(file, forKey: JSONKey("file"))
    }

    /// Reads the object `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        metadata = try MarkerMetadata(from: decoder)
        let object = try decoder.container(keyedBy: JSONKey.self)
        id = try object.decodeIfPresent(String.self, forKey: JSONKey("id"))
        file = try object.decodeIfPresent(String.self, forKey: JSONKey("file"))
    }
}

/// A number as `json(id:file:)` writes it: rounded to 1/1000, an integer
/// when whole (2, not 2.0).
/// `json(id:file:)` writes its numbers through this too, so both forms round alike.
struct JSONNumber: Encodable {
    /// The value rounded to 1/1000.
    let rounded: Double
    init(_ value: Double) { rounded = (value * 1000).rounded() / 1000 }

    /// The rounded value as a whole number when it is one (below 10¹⁵), else nil.
    var whole: Int? { rounded == rounded.rounded() && abs(rounded) < 1e15 ? Int(rounded) : nil }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        if let whole {
            try single.encode(whole)
        } else {
            try single.encode(rounded)
        }
    }
}

/// `{"x": …, "y": …}` with numbers as `JSONNumber` writes them.
struct JSONPoint: Codable {
    let point: Point
    init(_ point: Point) { self.point = point }
    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: JSONKey.self)
        try object.encode(JSONNumber(point.x), forKey: JSONKey("x"))
        try object.encode(JSONNumber(point.y), forKey: JSONKey("y"))
    }
    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: JSONKey.self)
        point = Point(try object.decode(Double.self, forKey: JSONKey("x")), try object.decode(Double.self, forKey: JSONKey("y")))
    }
}
