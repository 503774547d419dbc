import Foundation

/// The sprite index (`NAME.json`) through `Codable`: an object keyed by id
/// whose values are `SpriteSheet.Entry`. An entry encodes the keys that
/// `indexJSON()` writes (`x`, `y`, `width`, `height`, `pixelRatio`, and
/// `content`, `stretchX`, `stretchY`, `textFitWidth`, `textFitHeight`,
/// `sdf` when set), numbers as `indexJSON()` writes them (2, not 2.0); its
/// `id` is the key it sits under, not a field. With `SpriteSheet.indexEncoder`,
/// encoding `[id: entry]` gives the bytes of `indexJSON(minified: true)`.
extension SpriteSheet.Entry: Codable {
    private enum Key: String, CodingKey {
        case x, y, width, height, pixelRatio, content, stretchX, stretchY, textFitWidth, textFitHeight, sdf
    }

    /// Writes the entry's fields (not its id: that is the key of the index object).
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: Key.self)
        try object.encode(x, forKey: .x)
        try object.encode(y, forKey: .y)
        try object.encode(width, forKey: .width)
        try object.encode(height, forKey: .height)
        if pixelRatio == pixelRatio.rounded() && abs(pixelRatio) < 1e15 {
            try object.encode(Int64(pixelRatio), forKey: .pixelRatio)
        } else {
            try object.encode(pixelRatio, forKey: .pixelRatio)
        }
        try object.encodeIfPresent(metadata.content, forKey: .content)
        try object.encodeIfPresent(metadata.stretchX, forKey: .stretchX)
        try object.encodeIfPresent(metadata.stretchY, forKey: .stretchY)
        try object.encodeIfPresent(metadata.textFitWidth?.rawValue, forKey: .textFitWidth)
        try object.encodeIfPresent(metadata.textFitHeight?.rawValue, forKey: .textFitHeight)
        if metadata.sdf { try object.encode(true, forKey: .sdf) }
    }

    /// Reads one entry of an index object; its `id` is the key it sits under
    /// (the last key of the decoder's coding path). Throws `DecodingError`
    /// for a missing or mistyped field, a `content` that is not 4 numbers or
    /// a run that is not 2, an unknown `textFit…` value, or an entry decoded
    /// on its own, outside an object keyed by id.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        guard let key = decoder.codingPath.last, key.intValue == nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "a sprite index entry takes its id from its key: decode [String: SpriteSheet.Entry]"))
        }
        func textFit(_ key: Key) throws -> TextFit? {
            guard let text = try object.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let fit = TextFit(rawValue: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: object, debugDescription:
                    "'\(text)' is not one of \(TextFit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return fit
        }
        let content = try object.decodeIfPresent([Int].self, forKey: .content)
        if let content, content.count != 4 {
            throw DecodingError.dataCorruptedError(forKey: .content, in: object,
                                                   debugDescription: "expected [x1, y1, x2, y2], found \(content.count) numbers")
        }
        func runs(_ key: Key) throws -> [[Int]]? {
            let list = try object.decodeIfPresent([[Int]].self, forKey: key)
            if let list, !list.allSatisfy({ $0.count == 2 }) {
                throw DecodingError.dataCorruptedError(forKey: key, in: object, debugDescription: "expected [[from, to], …]")
            }
            return list
        }
        id = key.stringValue
        x = try object.decode(Int.self, forKey: .x)
        y = try object.decode(Int.self, forKey: .y)
        width = try object.decode(Int.self, forKey: .width)
        height = try object.decode(Int.self, forKey: .height)
        pixelRatio = try object.decode(Double.self, forKey: .pixelRatio)
        metadata = SpriteMetadata(content: content, stretchX: try runs(.stretchX), stretchY: try runs(.stretchY),
                                  textFitWidth: try textFit(.textFitWidth), textFitHeight: try textFit(.textFitHeight),
                                  sdf: try object.decodeIfPresent(Bool.self, forKey: .sdf) ?? false)
    }
}

extension SpriteSheet {
    /// A `JSONEncoder` that writes an index as `indexJSON(minified: true)`
    /// does: keys sorted, no spaces, slashes not escaped.
    public static var indexEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The entries of a sprite index (`NAME.json`, as `indexJSON()` writes
    /// it), sorted by id. Throws `DecodingError` when `data` is not such an
    /// object.
    public static func decodeIndex(_ data: Data) throws -> [Entry] {
        try JSONDecoder().decode([String: Entry].self, from: data).values.sorted { $0.id < $1.id }
    }
}
