import PinmintMarkers

/// Per-icon metadata given by hand (a sidecar's `icons.ID` or a marker
/// list's `sprite` object), in @1x pixels: scaled by the pixel ratio and
/// rounded when applied, so one sidecar serves @1x, @2x and @3x.
///
/// ```json
/// {"content": [4, 4, 28, 20], "stretchX": [[4, 28]], "stretchY": [[4, 20]],
///  "textFitWidth": "stretchOrShrink", "textFitHeight": "proportional", "sdf": true}
/// ```
public struct SpriteMetadataOverride: Sendable, Hashable {
    /// `[x1, y1, x2, y2]`, @1x pixels; read from JSON as 0...16384. nil
    /// (like every field here) keeps what the image has.
    public var content: [Double]?
    /// `[from, to]` column runs, @1x pixels; 1 to 64 runs when read from JSON.
    public var stretchX: [[Double]]?
    /// `[from, to]` row runs, @1x pixels; 1 to 64 runs when read from JSON.
    public var stretchY: [[Double]]?
    /// Replaces the image's `textFitWidth`.
    public var textFitWidth: TextFit?
    /// Replaces the image's `textFitHeight`.
    public var textFitHeight: TextFit?
    /// Sets (or clears) the image's `sdf` flag; `pinmint sprite` turns an
    /// image so flagged into a distance field (`SignedDistanceField`) before
    /// packing.
    public var sdf: Bool?
    /// Markers only: force (true) or forbid (false) the computed stretch metadata.
    public var stretchable: Bool?

    /// An override that changes nothing.
    public init() {}

    /// Whether no field is set (the image's metadata is kept as it is).
    public var isEmpty: Bool { self == SpriteMetadataOverride() }

    static let keys = ["content", "stretchX", "stretchY", "textFitWidth", "textFitHeight", "sdf", "stretchable"]

    /// Reads one object; `place` (`icons.cafe`) and `input` name it in errors.
    init(_ value: JSONValue, place: String, input: String, allowsStretchable: Bool) throws(SpriteError) {
        func fail(_ key: String, _ problem: String) -> SpriteError { SpriteError(input: input, problem: "\(place).\(key): \(problem)") }
        guard case .object(let members) = value else {
            throw SpriteError(input: input, problem: "\(place): expected an object of sprite metadata, found \(value.typeName)")
        }
        for key in members.keys.sorted() where !Self.keys.contains(key) || (key == "stretchable" && !allowsStretchable) {
            let hint = JSONValue.closest(to: key, in: Self.keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw fail(key, "unknown key\(hint); keys: \(Self.keys.filter { allowsStretchable || $0 != "stretchable" }.joined(separator: ", "))")
        }
        func numbers(_ value: JSONValue, key: String, count: Int) throws(SpriteError) -> [Double] {
            guard case .array(let items) = value, items.count == count else { throw fail(key, "expected \(count) numbers") }
            var result: [Double] = []
            for item in items {
                guard case .number(let number) = item, number.isFinite, number >= 0, number <= 16384 else {
                    throw fail(key, "expected numbers 0...16384, found \(item)")
                }
                result.append(number)
            }
            return result
        }
        func runs(_ key: String) throws(SpriteError) -> [[Double]]? {
            guard let value = members[key] else { return nil }
            guard case .array(let items) = value, !items.isEmpty, items.count <= 64 else { throw fail(key, "expected 1 to 64 [from, to] runs") }
            var result: [[Double]] = []
            for item in items { result.append(try numbers(item, key: key, count: 2)) }
            return result
        }
        func fit(_ key: String) throws(SpriteError) -> TextFit? {
            guard let value = members[key] else { return nil }
            guard case .string(let text) = value, let fit = TextFit(rawValue: text) else {
                throw fail(key, "expected one of \(TextFit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return fit
        }
        func flag(_ key: String) throws(SpriteError) -> Bool? {
            guard let value = members[key] else { return nil }
            guard case .bool(let flag) = value else { throw fail(key, "expected true or false") }
            return flag
        }
        if let value = members["content"] { content = try numbers(value, key: "content", count: 4) }
        stretchX = try runs("stretchX")
        stretchY = try runs("stretchY")
        textFitWidth = try fit("textFitWidth")
        textFitHeight = try fit("textFitHeight")
        sdf = try flag("sdf")
        stretchable = try flag("stretchable")
    }

    /// `image`'s metadata with these fields scaled to its ratio and put over
    /// it; checked against the image's size.
    func applied(to image: SpriteImage, input: String) throws(SpriteError) -> SpriteMetadata {
        var metadata = image.metadata
        let ratio = image.pixelRatio
        func pixels(_ value: Double) -> Int { Int((value * ratio).rounded()) }
        if let content { metadata.content = content.map(pixels) }
        if let stretchX { metadata.stretchX = stretchX.map { $0.map(pixels) } }
        if let stretchY { metadata.stretchY = stretchY.map { $0.map(pixels) } }
        if let textFitWidth { metadata.textFitWidth = textFitWidth }
        if let textFitHeight { metadata.textFitHeight = textFitHeight }
        if let sdf { metadata.sdf = sdf }
        if let problem = metadata.problem(width: image.width, height: image.height) {
            throw SpriteError(input: input, problem: "'\(image.id)' at @\(format(ratio))x: \(problem)")
        }
        return metadata
    }
}
