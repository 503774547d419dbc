import Foundation
import PinmintGeometry
import PinmintRaster

/// A marker style: named options and one or more variants (e.g. an avatar
/// unselected and selected), each a part tree written in the description
/// format with `${option}` placeholders. The built-in presets are styles
/// written in exactly this vocabulary (`MarkerStyle.presets`), so a user can
/// copy one (`pinmint styles --show NAME`) and make a new style as data.
///
/// Filling in options: a string that is exactly `"${name}"` becomes the
/// option's value with its type (a number stays a number); `${name}` inside
/// a longer string is replaced by its text; `${name|initials}` (also
/// `upper`, `lower`) transforms the text; `$${` writes a literal `${`.
/// An object with `"when": "name"` is kept only when the option is set (a
/// non-empty text other than "none", true, a non-zero number), with
/// `"unless": "name"` only when it is not; `"name=value"` and
/// `"name!=value"` compare, `"a|b"` holds when either does, and a list of
/// conditions must all hold.
public struct MarkerStyle: Sendable {
    /// Names a style option may not have: `pinmint render` takes each
    /// option as `--NAME`, and these are its own flags (and the short
    /// aliases -o, -q, -h), which an option of that name could never be set past.
    public static let reservedOptionNames: Set<String> = [
        "output", "meta", "scale", "id", "png", "quiet", "font-dir", "help", "version", "o", "q", "h",
    ]

    /// One option a style takes (`--label 5200萬` on the command line).
    public struct Option: Sendable, Hashable {
        /// The type of value an option takes, checked when it is set.
        public enum Kind: Sendable, Hashable {
            /// Any text, at most `MarkerLimits.maximumTextLength` characters;
            /// a number given in JSON becomes its text.
            case text
            /// A colour, or "none" (turns the parts that depend on it off), or "auto".
            case color
            /// A finite number within the range; "auto" or "none" on the
            /// command line leaves it unset.
            case number(ClosedRange<Double>)
            /// true or false (`true`/`yes`/`1`/`on` and their opposites on
            /// the command line).
            case flag
            /// A file path; relative paths are resolved against the current folder.
            case file
            /// One of these strings, spelt exactly.
            case choice([String])
        }
        /// The option's name: `--NAME` on the command line, `${NAME}` in the
        /// style; never one of `reservedOptionNames`.
        public let name: String
        /// What values it takes.
        public let kind: Kind
        /// Null when the option has no default (it is then unset).
        public let defaultValue: JSONValue
        /// One line for `pinmint styles`; may be empty.
        public let help: String

        /// The kind as people read it in `pinmint styles`.
        public var kindName: String {
            switch kind {
            case .text: return "text"
            case .color: return "colour"
            case .number(let range): return "number \(range.plainDescription)"
            case .flag: return "flag"
            case .file: return "file"
            case .choice(let choices): return choices.joined(separator: "|")
            }
        }
    }

    /// The style's name (a preset's name, or the file name without `.json`).
    public let name: String
    /// One line saying what the style draws ("" when the file gives none).
    public let summary: String
    /// The options the style declares, in the order written; at most
    /// `MarkerLimits.maximumOptionCount`.
    public let options: [Option]
    /// Variant names in output order: "default" first, then the others sorted.
    public var variantNames: [String] { variants.map(\.name) }
    /// The description's source (a file path or `preset NAME`), for errors.
    public let input: String
    /// The JSON text the style was read from (shown by `pinmint styles --show`).
    public let source: String
    let variants: [(name: String, template: Template)]
    let baseDirectory: String
    /// Decoded part trees reused across `resolve` calls that differ only in text options.
    let resolveCache: ResolveCache

    /// Reads a style from JSON text. `input` names it in errors; relative
    /// file paths inside it are resolved against `baseDirectory`.
    public init(json data: Data, name: String, input: String, baseDirectory: String) throws(MarkerError) {
        let root = try JSONValue.parse(data, name: input)
        var reader = try ObjectReader(root, path: "", input: input)
        self.name = try reader.string("name") ?? name
        summary = try reader.string("description") ?? ""
        self.input = input
        self.baseDirectory = baseDirectory
        source = String(decoding: data, as: UTF8.self)

        var options: [Option] = []
        for (index, item) in (try reader.array("options", maximumCount: MarkerLimits.maximumOptionCount) ?? []).enumerated() {
            options.append(try MarkerStyle.option(item, path: "options[\(index)]", input: input))
        }
        var seen = Set<String>()
        for option in options where !seen.insert(option.name).inserted {
            throw MarkerError(input: input, path: "options", problem: "option '\(option.name)' is declared twice")
        }
        for (index, option) in options.enumerated() where MarkerStyle.reservedOptionNames.contains(option.name) {
            throw MarkerError(input: input, path: "options[\(index)].name",
                              problem: "'\(option.name)' is a flag of pinmint render itself (\(MarkerStyle.reservedOptionNames.sorted().joined(separator: ", "))): "
                                + "a style option cannot take it")
        }
        // A flag option NAME is turned off by --no-NAME: an option of that name would take the same flag.
        for (index, option) in options.enumerated() where option.name.hasPrefix("no-") {
            let flagName = String(option.name.dropFirst(3))
            guard let flag = options.first(where: { $0.name == flagName }), case .flag = flag.kind else { continue }
            throw MarkerError(input: input, path: "options[\(index)].name",
                              problem: "'\(option.name)' is the flag that turns the flag option '\(flagName)' off (--\(option.name)): "
                                + "an option cannot take it")
        }
        self.options = options

        var variants: [(String, JSONValue)] = []
        let single = reader.value("marker"), several = reader.value("variants")
        switch (single, several) {
        case (let marker?, nil):
            variants = [("default", marker)]
        case (nil, .object(let members)?):
            guard !members.isEmpty, members.count <= MarkerLimits.maximumVariantCount else {
                throw reader.error("variants", "expected 1 to \(MarkerLimits.maximumVariantCount) variants")
            }
            for key in members.keys.sorted(by: { ($0 == "default" ? "" : $0) < ($1 == "default" ? "" : $1) }) {
                guard key.range(of: "^[a-z0-9][a-z0-9-]*$", options: .regularExpression) != nil else {
                    throw reader.error("variants.\(key)", "variant names are lower-case letters, digits and '-'")
                }
                variants.append((key, members[key]!))
            }
        case (nil, let other?):
            throw reader.error("variants", "expected an object of variants, found \(other.typeName)")
        case (nil, nil):
            throw reader.error("marker", "missing: a style needs 'marker' (a part) or 'variants'")
        case (.some, .some):
            throw reader.error("variants", "give either 'marker' or 'variants', not both")
        }
        let optionNames = Set(options.map(\.name))
        var compiled: [(name: String, template: Template)] = []
        for (name, template) in variants {
            let path = variants.count == 1 ? "marker" : "variants.\(name)"
            // A condition that failed on the root would leave no marker (it said
            // "expected a part (an object), found null"): refused whatever the values.
            if case .object(let members) = template, let key = ["when", "unless"].first(where: { members[$0] != nil }) {
                throw MarkerError(input: input, path: "\(path).\(key)", problem: "the root part cannot have '\(key)' "
                                  + "(without it there would be no marker); put the condition on its children")
            }
            compiled.append((name, try Template.compile(template, path: path, input: input, options: optionNames)))
        }
        self.variants = compiled
        resolveCache = ResolveCache(templates: compiled.map(\.template))
        try reader.finish(allowed: ["$schema", "comment"])
    }

    /// Reads a style file (`.json`).
    public init(contentsOfFile path: String) throws(MarkerError) {
        let data = try JSONValue.descriptionData(atPath: path)
        let name = PathName.deletingExtension(PathName.lastComponent(of: path))
        try self.init(json: data, name: name, input: path, baseDirectory: JSONValue.descriptionFolder(ofFileAt: path))
    }

    private static func option(_ value: JSONValue, path: String, input: String) throws(MarkerError) -> Option {
        var reader = try ObjectReader(value, path: path, input: input)
        guard let name = try reader.string("name"),
              name.range(of: "^[a-z][a-z0-9-]*$", options: .regularExpression) != nil else {
            throw reader.error("name", "missing or not a lower-case name (letters, digits, '-')")
        }
        let kind: Option.Kind
        switch try reader.string("type") ?? "text" {
        case "text": kind = .text
        case "color", "colour": kind = .color
        case "number":
            var range = -MarkerLimits.maximumLength...MarkerLimits.maximumLength
            if let bounds = try reader.array("range", maximumCount: 2) {
                guard bounds.count == 2 else { throw reader.error("range", "expected [minimum, maximum]") }
                let low = try JSONValue.number(bounds[0], at: reader.place("range[0]"), input: input, range: -1e9...1e9)
                let high = try JSONValue.number(bounds[1], at: reader.place("range[1]"), input: input, range: low...1e9)
                range = low...high
            }
            kind = .number(range)
        case "flag", "bool", "boolean": kind = .flag
        case "file": kind = .file
        case "choice":
            var choices: [String] = []
            for item in try reader.array("choices", maximumCount: 64) ?? [] {
                guard case .string(let choice) = item else { throw reader.error("choices", "expected strings") }
                choices.append(choice)
            }
            guard !choices.isEmpty else { throw reader.error("choices", "missing: a choice option lists its choices") }
            kind = .choice(choices)
        case let other:
            throw reader.error("type", "unknown option type '\(other)' (expected text, color, number, flag, file or choice)")
        }
        let help = try reader.string("help") ?? ""
        let defaultValue = reader.value("default") ?? .null
        try reader.finish()
        let option = Option(name: name, kind: kind, defaultValue: defaultValue, help: help)
        if defaultValue != .null {
            // The default must itself be a valid value.
            _ = try option.check(defaultValue, input: input, place: "\(path).default")
        }
        return option
    }

    // MARK: Filling in options

    /// The style's variants with `options` filled in. Values are text as
    /// typed on a command line (`"12"`, `"#fff"`, `"true"`); JSON values are
    /// accepted by `resolve(values:)`. Unknown options are an error.
    public func resolve(options: [String: String]) throws(MarkerError) -> [MarkerDescription] {
        var typed: [String: JSONValue] = [:]
        for (name, text) in options {
            guard let option = self.options.first(where: { $0.name == name }) else {
                throw unknownOption(name)
            }
            typed[name] = try option.parse(text, input: "--\(name)")
        }
        return try resolve(values: typed)
    }

    /// As `resolve(options:)`, with values already typed (from a JSON description).
    ///
    /// A batch resolves one style once per row with only a text option (a
    /// label) changing, and decoding the part tree from JSON was most of
    /// the work. So the decoded variants are kept (`ResolveCache`) per set of
    /// the other options' values, and a row that differs only in options
    /// that appear nowhere but in parts' `text` members gets a copy with just
    /// those texts filled in again. Anything the cache cannot vouch for (such
    /// an option unset, a text over the length limit, a first sight) takes
    /// the full path, so results and errors are the same as decoding every time.
    public func resolve(values: [String: JSONValue]) throws(MarkerError) -> [MarkerDescription] {
        let filled = try filledValues(values)
        guard !resolveCache.textOptions.isEmpty else { return try decode(filled) }
        return try resolveCache.resolve(filled) { () throws(MarkerError) in try decode(filled) }
    }

    /// `resolve(values:)` without the cache: options filled into the JSON, every part decoded.
    func resolveUncached(values: [String: JSONValue]) throws(MarkerError) -> [MarkerDescription] {
        try decode(try filledValues(values))
    }

    /// Every option's value: the defaults, overridden by `values` (checked against their options).
    private func filledValues(_ values: [String: JSONValue]) throws(MarkerError) -> [String: JSONValue] {
        var filled: [String: JSONValue] = [:]
        for option in options { filled[option.name] = option.defaultValue }
        for (name, value) in values {
            guard let option = options.first(where: { $0.name == name }) else { throw unknownOption(name) }
            filled[name] = try option.check(value, input: input, place: "options.\(name)")
        }
        return filled
    }

    /// The variants with `filled` substituted into their JSON and decoded.
    private func decode(_ filled: [String: JSONValue]) throws(MarkerError) -> [MarkerDescription] {
        var descriptions: [MarkerDescription] = []
        for (name, template) in variants {
            let path = variants.count == 1 ? "marker" : "variants.\(name)"
            let substituted = template.fill(filled) ?? .null
            descriptions.append(try MarkerDescription(variant: name, json: substituted, path: path, input: input,
                                                      baseDirectory: baseDirectory))
        }
        return descriptions
    }

    private func unknownOption(_ name: String) -> MarkerError {
        let hint = JSONValue.closest(to: name, in: options.map(\.name)).map { " (did you mean '--\($0)'?)" } ?? ""
        return MarkerError(input: "--\(name)", problem: "\(self.name) has no option '\(name)'" + hint
                           + "; see 'pinmint styles \(self.name)'")
    }
}

extension MarkerStyle.Option {
    /// Reads a command-line value (`input` names it in errors, e.g. `--label`).
    public func parse(_ text: String, input: String) throws(MarkerError) -> JSONValue {
        switch kind {
        case .number:
            if text == "auto" || text == "none" { return .null }
            guard let number = Double(text) else { throw MarkerError(input: input, problem: "'\(text)' is not a number") }
            return try check(.number(number), input: input, place: "")
        case .flag:
            switch text.lowercased() {
            case "true", "yes", "1", "on": return .bool(true)
            case "false", "no", "0", "off": return .bool(false)
            default: throw MarkerError(input: input, problem: "'\(text)' is not true or false")
            }
        case .file:
            if text.isEmpty || text == "none" { return .string("") }
            let absolute = text.hasPrefix("/") ? text
                : PathName.appending(text, to: FileManager.default.currentDirectoryPath)
            return .string(absolute)
        default:
            return try check(.string(text), input: input, place: "")
        }
    }

    /// Checks a typed value against the option's kind.
    func check(_ value: JSONValue, input: String, place: String) throws(MarkerError) -> JSONValue {
        func fail(_ problem: String) -> MarkerError { MarkerError(input: input, path: place, problem: problem) }
        switch (kind, value) {
        case (_, .null): return .null
        case (.text, .string(let text)):
            guard text.unicodeScalars.count <= MarkerLimits.maximumTextLength else {
                throw fail("is \(text.unicodeScalars.count) characters long; at most \(MarkerLimits.maximumTextLength) are allowed")
            }
            return value
        case (.text, .number(let number)): return .string(number.plainDescription)
        case (.color, .string(let text)):
            if text == "none" || text == "auto" || text.isEmpty { return value }
            do { _ = try Color(parsing: text) } catch { throw fail(error.description) }
            return value
        case (.number(let range), .number(let number)):
            guard number.isFinite, range.contains(number) else {
                throw fail("\(number.plainDescription) is out of range (\(range.plainDescription))")
            }
            return value
        case (.flag, .bool): return value
        case (.file, .string): return value
        case (.choice(let choices), .string(let text)):
            guard choices.contains(text) else {
                throw fail("'\(text)' is not one of \(choices.joined(separator: ", "))")
            }
            return value
        default:
            throw fail("expected \(kindName), found \(value.typeName)")
        }
    }
}


/// Decoded variants of one style, kept between `MarkerStyle.resolve(values:)`
/// calls (see there). Keyed by the values of every option except the text
/// options: those that occur only inside parts' `text` members (not in a
/// condition, not in any other member), so that the rest of the decoded tree
/// cannot depend on them. An entry records where those texts are (the
/// child indices of each text part from the variant's root, which only the
/// key's options decide through conditions), and a hit writes the row's
/// texts there. Safe from several threads; at most `capacity` entries.
final class ResolveCache: @unchecked Sendable {
    /// Options that occur only inside parts' `text` members.
    let textOptions: Set<String>
    static let capacity = 64

    /// One text part to refill: which variant, the child indices down to it, and its `text` template.
    struct Site {
        let variant: Int
        let indices: [Int]
        let template: Template
    }

    private struct Entry {
        let descriptions: [MarkerDescription]
        let sites: [Site]
    }

    private let lock = NSLock()
    private var entries: [[String: JSONValue]: Entry] = [:]
    /// The variants' templates (for finding the sites of a new entry).
    private let templates: [Template]

    init(templates: [Template]) {
        self.templates = templates
        textOptions = Template.textOnlyOptions(templates)
    }

    /// The descriptions for `filled` (every option's value): from an entry
    /// with its texts refilled, or from `decode` (then remembered).
    func resolve(_ filled: [String: JSONValue],
                 decode: () throws(MarkerError) -> [MarkerDescription]) throws(MarkerError) -> [MarkerDescription] {
        var key = filled
        for name in textOptions {
            // An unset text option drops its "text" members (and may change a part's inferred type).
            guard case .string? = key.removeValue(forKey: name) else { return try decode() }
        }
        lock.lock()
        let entry = entries[key]
        lock.unlock()
        if let entry, let patched = Self.refill(entry, filled) { return patched }
        let descriptions = try decode()
        if entry == nil {
            let sites = Template.textSites(of: templates, options: textOptions, values: filled)
            lock.lock()
            if entries.count < Self.capacity { entries[key] = Entry(descriptions: descriptions, sites: sites) }
            lock.unlock()
        }
        return descriptions
    }

    /// The entry's descriptions with every site's text evaluated for `filled`; nil when a text is
    /// not what decoding would accept as is (the full path then reports it).
    private static func refill(_ entry: Entry, _ filled: [String: JSONValue]) -> [MarkerDescription]? {
        var descriptions = entry.descriptions
        for site in entry.sites {
            guard case .string(let text)? = site.template.fill(filled),
                  text.unicodeScalars.count <= MarkerLimits.maximumTextLength,
                  descriptions[site.variant].body.setText(text, at: site.indices[...]) else { return nil }
        }
        return descriptions
    }
}

extension Part {
    /// Sets the text of the text part at `indices` (child indices from this part); false when there is none.
    mutating func setText(_ text: String, at indices: ArraySlice<Int>) -> Bool {
        guard let first = indices.first else {
            guard case .text(var part) = kind else { return false }
            part.text = text
            kind = .text(part)
            return true
        }
        guard case .box(var box) = kind, box.children.indices.contains(first) else { return false }
        kind = .spacer  // so that `box` holds the only reference to the children (no copy)
        let done = box.children[first].setText(text, at: indices.dropFirst())
        kind = .box(box)
        return done
    }
}
