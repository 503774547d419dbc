import Foundation
import PinmintGeometry

/// Which point of a marker sits on the map coordinate.
public enum AnchorSpec: Sendable, Hashable {
    /// The tip of the first pointer (bubble arrow, teardrop point) in the
    /// part tree; the centre when there is none.
    case auto
    /// A point of the marker's frame: `center`, `top`, `bottom`, `left`,
    /// `right`, `top-left`, `top-right`, `bottom-left`, `bottom-right`.
    case named(NamedAnchor)
    /// Points from the frame's top-left corner.
    case point(Point)

    /// A point of the marker's frame by name; the raw value is the
    /// description format's spelling.
    public enum NamedAnchor: String, Sendable, CaseIterable {
        /// The frame's centre.
        case center
        /// The middle of the top edge.
        case top
        /// The middle of the bottom edge.
        case bottom
        /// The middle of the left edge.
        case left
        /// The middle of the right edge.
        case right
        /// The top-left corner.
        case topLeft = "top-left"
        /// The top-right corner.
        case topRight = "top-right"
        /// The bottom-left corner.
        case bottomLeft = "bottom-left"
        /// The bottom-right corner.
        case bottomRight = "bottom-right"
    }
}

/// One marker ready to lay out and draw: a part tree and its anchor. A
/// style with variants (unselected, selected) gives one description each.
public struct MarkerDescription: Sendable {
    /// "default", or the variant's name ("selected"); output files of other
    /// variants get `-NAME` after the marker's id.
    public var variant: String
    /// The root part; its frame is the marker's frame (plus room for ink
    /// such as strokes and shadows that reach outside it).
    public var body: Part
    /// Which point sits on the map coordinate (default `auto`: the pointer's tip).
    public var anchor: AnchorSpec
    /// Where the description came from (a file, `preset NAME`), for errors.
    public var source: String

    /// A description built in Swift. Nothing is checked here: limits are
    /// checked by `validate()`, which the renderer calls before drawing.
    public init(variant: String = "default", body: Part, anchor: AnchorSpec = .auto, source: String = "marker") {
        self.variant = variant
        self.body = body
        self.anchor = anchor
        self.source = source
    }

    /// Reads a root part (with an optional `anchor` key) from JSON.
    init(variant: String, json: JSONValue, path: String, input: String, baseDirectory: String) throws(MarkerError) {
        guard case .object(var members) = json else {
            throw MarkerError(input: input, path: path, problem: "expected a part (an object), found \(json.typeName)")
        }
        var anchor = AnchorSpec.auto
        if let value = members.removeValue(forKey: "anchor") {
            anchor = try MarkerDescription.anchor(value, path: "\(path).anchor", input: input)
        }
        var decoder = PartDecoder(input: input, baseDirectory: baseDirectory)
        self.init(variant: variant, body: try decoder.part(.object(members), path: path), anchor: anchor, source: input)
    }

    private static func anchor(_ value: JSONValue, path: String, input: String) throws(MarkerError) -> AnchorSpec {
        switch value {
        case .string("auto"), .string("pointer"): return .auto
        case .string(let name):
            guard let named = AnchorSpec.NamedAnchor(rawValue: name) else {
                throw MarkerError(input: input, path: path, problem: "unknown anchor '\(name)' (expected 'auto', "
                                  + AnchorSpec.NamedAnchor.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                                  + " or [x, y] in points)")
            }
            return .named(named)
        case .array(let items) where items.count == 2:
            let range = -MarkerLimits.maximumLength...MarkerLimits.maximumLength
            return .point(Point(try JSONValue.number(items[0], at: "\(path)[0]", input: input, range: range),
                                try JSONValue.number(items[1], at: "\(path)[1]", input: input, range: range)))
        default:
            throw MarkerError(input: input, path: path, problem: "expected an anchor name or [x, y], found \(value.typeName)")
        }
    }
}

/// A description file: a style of its own (`marker` or `variants`, with
/// optional `options`), or a preset with options:
/// `{"preset": "price-tag", "options": {"label": "5200萬"}}`.
public struct MarkerFile: Sendable {
    /// The file's own style, or the preset it names.
    public let style: MarkerStyle
    /// Option values the file sets.
    public let values: [String: JSONValue]

    /// A style with option values (e.g. a preset and nothing set).
    public init(style: MarkerStyle, values: [String: JSONValue] = [:]) {
        self.style = style
        self.values = values
    }

    /// Reads the description at `path` (at most
    /// `MarkerLimits.maximumDescriptionBytes`); relative picture and icon
    /// paths in it are resolved against the file's folder. Throws
    /// `MarkerError` naming `path` when the file cannot be read, is not
    /// JSON, or is not a valid style or preset with valid option values.
    public init(contentsOfFile path: String) throws(MarkerError) {
        let data = try JSONValue.descriptionData(atPath: path)
        try self.init(json: data, input: path, baseDirectory: JSONValue.descriptionFolder(ofFileAt: path))
    }

    /// Reads a description from JSON text; `input` names it in errors (and,
    /// without its folder and `.json`, names a file's own style), and
    /// relative picture and icon paths are resolved against
    /// `baseDirectory` ("" leaves them relative to the working directory).
    /// Throws `MarkerError` as `init(contentsOfFile:)` does.
    public init(json data: Data, input: String, baseDirectory: String) throws(MarkerError) {
        let root = try JSONValue.parse(data, name: input)
        if case .object(let members) = root, let preset = members["preset"] {
            guard case .string = preset else {
                throw MarkerError(input: input, path: "preset", problem: "expected a preset's name (a string: "
                                  + "\(MarkerStyle.presetNames.joined(separator: ", ")))")
            }
        }
        guard case .object(let members) = root, case .string(let preset)? = members["preset"] else {
            let name = PathName.deletingExtension(PathName.lastComponent(of: input))
            style = try MarkerStyle(json: data, name: name, input: input, baseDirectory: baseDirectory)
            values = [:]
            return
        }
        var reader = try ObjectReader(root, path: "", input: input)
        _ = reader.value("preset")
        guard let style = MarkerStyle.preset(named: preset) else {
            throw reader.error("preset", "unknown preset '\(preset)' (presets: \(MarkerStyle.presetNames.joined(separator: ", ")))")
        }
        self.style = style
        var values: [String: JSONValue] = [:]
        if let options = reader.value("options") {
            guard case .object(let given) = options else {
                throw reader.error("options", "expected an object of option values, found \(options.typeName)")
            }
            for name in given.keys.sorted() {
                let value = given[name]!
                // Checked here, so that a problem names this file and its key (resolving
                // would name the preset, and a misspelt key as if it were a flag).
                guard let option = style.options.first(where: { $0.name == name }) else {
                    let hint = JSONValue.closest(to: name, in: style.options.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
                    throw reader.error("options.\(name)", "\(style.name) has no option '\(name)'\(hint); see 'pinmint styles \(style.name)'")
                }
                _ = try option.check(value, input: input, place: "options.\(name)")
                // Relative picture paths are relative to the description file.
                if case .string(let text) = value, option.kind == .file,
                   !text.isEmpty, !text.hasPrefix("/"), !baseDirectory.isEmpty {
                    values[name] = .string(PathName.appending(text, to: baseDirectory))
                } else {
                    values[name] = value
                }
            }
        }
        self.values = values
        try reader.finish(allowed: ["$schema", "comment"])
    }
}
