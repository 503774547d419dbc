import Foundation
import PinmintMarkers

/// Finds the features of a GeoJSON FeatureCollection in a byte stream one at
/// a time, without holding the document: it follows strings and bracket
/// depth only, finds the top-level `"features"` array, and hands each
/// element's text to the JSON parser. A feature that does not parse is one
/// malformed row, named by its place (`features[3]`) and, in a document of
/// several lines, its line; the scan goes on at the next element.
struct GeoJSONScanner {
    private var started = false
    private var inFeatures = false
    private var finished = false
    /// The 0-based index in the features array of the next element.
    private var featureIndex = 0
    /// Whether a comma is due before the next element (one has been read):
    /// elements are separated by exactly one comma, none before the first
    /// or the closing `]`.
    private var commaDue = false

    mutating func next(_ stream: ByteStream, input: String) throws(SpriteError) -> DataRowResult? {
        if finished { return nil }
        if !started {
            started = true
            stream.skipByteOrderMark()
            skipSpace(stream)
            guard stream.nextByte() == UInt8(ascii: "{") else {
                throw SpriteError(input: input, line: stream.line, problem: "not a GeoJSON object (it must start with '{')")
            }
            try findFeatures(stream, input: input)
            inFeatures = true
        }
        // Inside the features array: the next element, or its end.
        while true {
            skipSpace(stream)
            guard let byte = stream.peekByte() else {
                throw SpriteError(input: input, line: stream.line, problem: "the file ends inside the features array")
            }
            if byte == UInt8(ascii: ",") {
                guard commaDue else {
                    throw SpriteError(input: input, line: stream.line, problem: featureIndex == 0
                                      ? "a comma before the first feature of the features array"
                                      : "two commas after features[\(featureIndex - 1)]")
                }
                _ = stream.nextByte()
                commaDue = false
                skipSpace(stream)
                if stream.peekByte() == UInt8(ascii: "]") {
                    throw SpriteError(input: input, line: stream.line, problem: "a comma before the closing ] of the features array")
                }
                continue
            }
            if byte == UInt8(ascii: "]") {
                _ = stream.nextByte()
                finished = true
                return nil
            }
            // (An element runs to the next comma or `]` at its own depth, so one
            // always follows it: `commaDue` is set, never found set here.)
            commaDue = true
            let line = stream.line, path = "features[\(featureIndex)]"
            featureIndex += 1
            let element = try readElement(stream, input: input)
            // In a document on one line (so far), the line says nothing: the feature's index finds it.
            let locates = line > 1 || stream.line > 1
            guard let bytes = element else {
                return .malformed(line: locates ? line : 0, problem: "\(path): a feature longer than \(DataLimits.maximumRowBytes) bytes")
            }
            switch Self.feature(bytes, line: line, path: path) {
            case .row(var row):
                row.feature = featureIndex - 1
                row.lineLocates = locates
                return .row(row)
            case .malformed(let line, let problem):
                return .malformed(line: locates ? line : 0, problem: problem)
            }
        }
    }

    /// Reads up to the `[` of the top-level `"features"` array.
    private func findFeatures(_ stream: ByteStream, input: String) throws(SpriteError) {
        // At depth 1 (inside the top-level object): keys, colons, values.
        var depth = 1
        var lastString: [UInt8] = []
        var key: [UInt8]? = nil
        while let byte = stream.nextByte() {
            switch byte {
            case UInt8(ascii: "\""):
                let text = readString(stream, keep: 64)
                if depth == 1 {
                    // The value of the top-level "type".
                    if key == [UInt8]("type".utf8) && lastString.isEmpty && text != [UInt8]("FeatureCollection".utf8) {
                        throw SpriteError(input: input, line: stream.line,
                                          problem: "a GeoJSON \(String(decoding: text, as: UTF8.self)), not a FeatureCollection")
                    }
                    lastString = text
                }
            case UInt8(ascii: ":") where depth == 1:
                key = lastString
                lastString = []
            case UInt8(ascii: ",") where depth == 1:
                key = nil; lastString = []
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 1 && byte == UInt8(ascii: "[") && key == [UInt8]("features".utf8) { return }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    throw SpriteError(input: input, line: stream.line, problem: "no \"features\" array: not a GeoJSON FeatureCollection")
                }
            default:
                break
            }
        }
        throw SpriteError(input: input, line: stream.line, problem: "the file ends before a \"features\" array")
    }

    /// The bytes of one array element, up to (not including) the `,` or `]`
    /// that ends it at the array's depth; nil when it is too long (skipped).
    private func readElement(_ stream: ByteStream, input: String) throws(SpriteError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var tooLong = false
        var depth = 0
        let startLine = stream.line
        func keep(_ byte: UInt8) {
            if bytes.count < DataLimits.maximumRowBytes { bytes.append(byte) } else { tooLong = true }
        }
        while let byte = stream.peekByte() {
            if depth == 0 && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")) { return tooLong ? nil : bytes }
            _ = stream.nextByte()
            keep(byte)
            switch byte {
            case UInt8(ascii: "\""):
                // The string's bytes and its closing quote, escapes kept.
                var escaped = false
                while let inner = stream.nextByte() {
                    keep(inner)
                    if escaped { escaped = false; continue }
                    if inner == UInt8(ascii: "\\") { escaped = true } else if inner == UInt8(ascii: "\"") { break }
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth < 0 { throw SpriteError(input: input, line: stream.line, problem: "unbalanced '\(Character(UnicodeScalar(byte)))'") }
            default: break
            }
        }
        throw SpriteError(input: input, line: startLine, problem: "the file ends inside the feature that starts here")
    }

    /// A string's first `keep` bytes after its opening quote (the rest is skipped).
    private func readString(_ stream: ByteStream, keep: Int) -> [UInt8] {
        var text: [UInt8] = []
        var escaped = false
        while let byte = stream.nextByte() {
            if escaped { escaped = false; if text.count < keep { text.append(byte) }; continue }
            if byte == UInt8(ascii: "\\") { escaped = true; continue }
            if byte == UInt8(ascii: "\"") { break }
            if text.count < keep { text.append(byte) }
        }
        return text
    }

    private func skipSpace(_ stream: ByteStream) {
        while let byte = stream.peekByte(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { _ = stream.nextByte() }
    }

    /// A feature's properties as fields (its `id` too when the properties have
    /// none), and a Point's coordinates. `path` (`features[3]`) leads every problem.
    static func feature(_ bytes: [UInt8], line: Int, path: String) -> DataRowResult {
        func malformed(_ place: String, _ problem: String) -> DataRowResult { .malformed(line: line, problem: "\(place): \(problem)") }
        if let problem = TextBytes.problem(bytes) { return malformed(path, "the feature \(problem)") }
        let value: JSONValue
        do { value = try JSONReader.parse(bytes, maximumDepth: MarkerLimits.maximumJSONDepth) } catch {
            return .malformed(line: line, problem: JSONRow.problem(error, path: path))
        }
        guard case .object(let feature) = value else {
            return malformed(path, "expected a Feature object, found \(value.typeName)")
        }
        guard feature["type"] == .string("Feature") else {
            return malformed("\(path).type", feature["type"].map { "expected \"Feature\", found \(JSONText.serialize($0))" }
                             ?? "missing (a feature's type is \"Feature\")")
        }
        var properties: [String: JSONValue]
        switch feature["properties"] {
        case .object(let members)?: properties = members
        case .null?, nil: properties = [:]
        case let other?: return malformed("\(path).properties", "expected an object, found \(other.typeName)")
        }
        if properties["id"] == nil, let id = feature["id"] { properties["id"] = id }
        var coordinates: [Double]? = nil
        if case .object(let geometry)? = feature["geometry"], geometry["type"] == .string("Point") {
            switch pointCoordinates(geometry["coordinates"]) {
            case .success(let position): coordinates = position
            case .failure(let problem): return malformed("\(path).geometry.coordinates", problem.text)
            }
        }
        return JSONRow.row(properties, line: line, path: "\(path).properties", coordinates: coordinates)
    }

    /// Why a Point's coordinates cannot go into the index.
    struct CoordinateProblem: Error {
        let text: String
    }

    /// A Point's `[longitude, latitude]` (RFC 7946, 3.1.1: a position is two
    /// or three numbers, longitude and latitude in WGS 84 degrees, an
    /// altitude after them), nil for an empty array (RFC 7946, 3.1: a
    /// geometry without a place). Anything else fails the row, since the
    /// index promises a Point's coordinates: `["a", 2]`, `[1]`, a latitude of
    /// 121.5 (the pair swapped) would otherwise leave the marker without a place.
    static func pointCoordinates(_ value: JSONValue?) -> Result<[Double]?, CoordinateProblem> {
        func fail(_ text: String) -> Result<[Double]?, CoordinateProblem> { .failure(CoordinateProblem(text: text)) }
        guard let value else { return fail("missing (a Point's coordinates are [longitude, latitude])") }
        guard case .array(let position) = value else {
            return fail("expected [longitude, latitude], found \(value.typeName)")
        }
        if position.isEmpty { return .success(nil) }
        var numbers: [Double] = []
        for element in position {
            guard case .number(let number) = element else {
                return fail("expected [longitude, latitude] numbers, found \(shown(value))")
            }
            numbers.append(number)
        }
        guard numbers.count >= 2 else { return fail("expected [longitude, latitude], found \(shown(value))") }
        let longitude = numbers[0], latitude = numbers[1]
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            return fail("longitude \(JSONText.number(longitude)) is outside -180...180 (a position is [longitude, latitude])")
        }
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            return fail("latitude \(JSONText.number(latitude)) is outside -90...90 (a position is [longitude, latitude])")
        }
        return .success([longitude, latitude])
    }

    /// A JSON value for a message, cut to 60 characters.
    private static func shown(_ value: JSONValue) -> String {
        let text = JSONText.serialize(value)
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }
}
