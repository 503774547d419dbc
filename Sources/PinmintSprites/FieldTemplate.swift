import Foundation

/// A text with `{field}` placeholders filled from a data row, as
/// `--set label='{price}萬'` gives it. `{{` and `}}` write literal braces.
///
/// A placeholder is `{NAME}`, `{NAME?}` or `{NAME|DEFAULT}`, with filters
/// after the name, each led by a colon: `{price:number(0)|—}`.
///
/// | Placeholder | The field is there | Missing, null or empty |
/// |---|---|---|
/// | `{price}` | its text | missing: the row fails; null or empty: empty |
/// | `{price?}` | its text | empty |
/// | `{price\|—}` | its text | `—` (the default, as written, up to the `}`; it cannot hold braces) |
///
/// Filters, applied left to right to a field that is there (never to a default):
/// - `number` — a number with its thousands grouped: `1234567.5` → `1,234,567.5`;
///   `number(D)` rounds to D decimals (0...20, half away from zero, exactly on
///   the decimal digits); `number(D, "G")` and `number(D, "G", "P")` give the
///   grouping text and the decimal point (`number(2, " ", ",")` → `1 234 567,50`;
///   `""` for no grouping). A field that is not a number fails the row.
/// - `upper`, `lower` — case mapping, the same in every locale.
/// - `trim` — spaces, tabs and line breaks at both ends removed.
/// - `truncate(N)` — at most N characters (grapheme clusters: `🇯🇵` or `é` is
///   one), the last being `…` when the text was cut; `truncate(N, "...")`
///   gives another ellipsis.
///
/// A field's name runs to the first colon that starts a known filter, so
/// names with colons (OpenStreetMap's `addr:city`, `name:en`) need no
/// quoting: `{name:en:upper}` is field `name:en`, upper-cased.
public struct FieldTemplate: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case text(String)
        case field(Placeholder)
    }

    /// One `{…}`: the field, its filters, and what stands in when the field is absent.
    struct Placeholder: Sendable, Hashable {
        enum Absence: Sendable, Hashable {
            /// `{name}`: a missing field fails the row; null or empty is empty.
            case required
            /// `{name?}`, `{name|text}`: missing, null or empty gives `text`.
            case replacedBy(String)
        }
        let name: String
        let filters: [Filter]
        let absence: Absence
        /// The placeholder as written, braces included, for messages.
        let source: String
    }

    /// Limits on filter arguments, so that a template cannot ask for a
    /// megabyte of zeros.
    public enum Limits {
        /// `number(D)`: D at most this.
        public static let maximumDecimals = 20
        /// `truncate(N)`: N at most this.
        public static let maximumTruncation = 10_000
        /// A number's exponent (`1e400`) at most this in size: the digits are written out.
        public static let maximumExponent = 100
    }

    /// The template as written.
    public let source: String
    /// What names the template in messages (`--set label`).
    public let input: String
    let pieces: [Piece]

    /// Parses `text`; `input` (`--set label`) names it in errors.
    /// - Throws: `SpriteError` for an unclosed `{`, a stray `}`, an empty `{}`,
    ///   an unknown filter or a filter's bad argument.
    public init(_ text: String, input: String) throws(SpriteError) {
        source = text
        self.input = input
        var pieces: [Piece] = []
        var literal = "", inner = ""
        var inField = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending { pending = nil; return character }
            return characters.next()
        }
        while let character = next() {
            if inField {
                if character == "}" {
                    guard !inner.isEmpty else { throw SpriteError(input: input, problem: "'\(text)': an empty {} (write {{}} for braces)") }
                    pieces.append(.field(try Self.placeholder(inner, template: text, input: input)))
                    inner = ""; inField = false
                } else if character == "{" {
                    throw SpriteError(input: input, problem: "'\(text)': '{' inside a placeholder (a default cannot hold braces)")
                } else {
                    inner.append(character)
                }
                continue
            }
            if character == "{" || character == "}" {
                let following = next()
                if following == character { literal.append(character); continue }
                pending = following
                guard character == "{" else {
                    throw SpriteError(input: input, problem: "'\(text)': a '}' without its '{' (write }} for a brace)")
                }
                if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
                inField = true
                continue
            }
            literal.append(character)
        }
        if inField { throw SpriteError(input: input, problem: "'\(text)': a '{' is never closed (write {{ for a brace)") }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    /// The field names the template uses, in order, each once.
    public var fieldNames: [String] {
        var names: [String] = []
        for case .field(let placeholder) in pieces where !names.contains(placeholder.name) { names.append(placeholder.name) }
        return names
    }

    /// The field names a row must have (`{name}`, not `{name?}` nor `{name|…}`), in order, each once.
    public var requiredFieldNames: [String] {
        var names: [String] = []
        for case .field(let placeholder) in pieces where placeholder.absence == .required && !names.contains(placeholder.name) {
            names.append(placeholder.name)
        }
        return names
    }

    /// The text with `fields` filled in, or the first placeholder that cannot be.
    public func fill(_ fields: [String: String]) -> Result<String, FieldProblem> {
        // The common case, one plain `{field}` and nothing else: no string built.
        if pieces.count == 1, case .field(let placeholder) = pieces[0], placeholder.filters.isEmpty, placeholder.absence == .required {
            guard let value = fields[placeholder.name] else { return .failure(FieldProblem(placeholder, kind: .missing)) }
            return .success(value)
        }
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let literal): text += literal
            case .field(let placeholder):
                switch placeholder.value(in: fields) {
                case .success(let value): text += value
                case .failure(let problem): return .failure(problem)
                }
            }
        }
        return .success(text)
    }

    /// Why a placeholder could not be filled: the row lacks its field, or a
    /// filter cannot take the field's text (`number` of `n/a`).
    public struct FieldProblem: Error, Sendable {
        /// What went wrong with the placeholder.
        public enum Kind: Sendable, Equatable {
            /// The row has no field of that name (a required placeholder).
            case missing
            /// `number` given this text.
            case notANumber(String)
        }
        /// The field's name.
        public let name: String
        /// The placeholder as written (`{price:number}`).
        public let placeholder: String
        /// Why the placeholder could not be filled.
        public let kind: Kind

        init(_ placeholder: Placeholder, kind: Kind) {
            name = placeholder.name
            self.placeholder = placeholder.source
            self.kind = kind
        }
    }

    /// The name the failure had before filters came.
    public typealias MissingField = FieldProblem

    /// `problem` said of the template: `--set label '{price}萬': no field 'price' (fields: id, name; …)`.
    /// - Parameter fields: the row's field names, listed when the field is missing.
    public func message(_ problem: FieldProblem, fields: [String]) -> String {
        let lead = "\(input) '\(source)': "
        switch problem.kind {
        case .missing:
            var hint = "write {\(problem.name)?} or {\(problem.name)|…} when rows may lack it"
            // `{price:numbr}` reads as a field named `price:numbr`: say so when `price` is there.
            if let colon = problem.name.lastIndex(of: ":"), fields.contains(String(problem.name[..<colon])) {
                hint = "'\(problem.name[problem.name.index(after: colon)...])' is not a filter (filters: \(Filter.names))"
            }
            return lead + "no field '\(problem.name)' (fields: \(fields.sorted().joined(separator: ", ")); \(hint))"
        case .notANumber(let text):
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            return lead + "\(problem.placeholder): '\(shown)' is not a number"
        }
    }
}

// MARK: Filters

extension FieldTemplate {
    enum Filter: Sendable, Hashable {
        case number(decimals: Int?, group: String, point: String)
        case upper, lower, trim
        case truncate(Int, ellipsis: String)

        /// Every filter's name, as templates write it.
        static let nameList = ["number", "upper", "lower", "trim", "truncate"]
        /// `nameList` for messages.
        static let names = nameList.joined(separator: ", ")

        /// The filter's output for `text`, nil when `number` is given what is not a number.
        func apply(_ text: String) -> String? {
            switch self {
            case .number(let decimals, let group, let point):
                return NumberFormat.format(text, decimals: decimals, group: group, point: point)
            case .upper: return text.uppercased()
            case .lower: return text.lowercased()
            case .trim: return text.trimmingCharacters(in: .whitespacesAndNewlines)
            case .truncate(let count, let ellipsis):
                guard text.count > count else { return text }
                let kept = max(0, count - ellipsis.count)
                var cut = String(text.prefix(kept))
                while cut.last?.isWhitespace == true { cut.removeLast() }
                return ellipsis.count > count ? String(ellipsis.prefix(count)) : cut + ellipsis
            }
        }
    }
}

extension FieldTemplate.Placeholder {
    func value(in fields: [String: String]) -> Result<String, FieldTemplate.FieldProblem> {
        guard let text = fields[name] else {
            if case .replacedBy(let replacement) = absence { return .success(replacement) }
            return .failure(FieldTemplate.FieldProblem(self, kind: .missing))
        }
        if text.isEmpty {
            if case .replacedBy(let replacement) = absence { return .success(replacement) }
            return .success(text)
        }
        var value = text
        for filter in filters {
            guard let filtered = filter.apply(value) else {
                return .failure(FieldTemplate.FieldProblem(self, kind: .notANumber(text)))
            }
            value = filtered
        }
        return .success(value)
    }
}

// MARK: Parsing a placeholder

extension FieldTemplate {
    /// `inner`: the text between `{` and `}`.
    static func placeholder(_ inner: String, template: String, input: String) throws(SpriteError) -> Placeholder {
        func fail(_ problem: String) -> SpriteError { SpriteError(input: input, problem: "'\(template)': {\(inner)}: \(problem)") }
        var specification = inner
        var absence = Placeholder.Absence.required
        if let bar = inner.firstIndex(of: "|") {
            specification = String(inner[..<bar])
            absence = .replacedBy(String(inner[inner.index(after: bar)...]))
            if specification.hasSuffix("?") { throw fail("give either '?' (empty when absent) or '|DEFAULT', not both") }
        } else if inner.hasSuffix("?") {
            specification.removeLast()
            absence = .replacedBy("")
        }
        // Split at colons outside quotes and parentheses.
        var parts: [String] = [], part = ""
        var depth = 0, quoted = false
        for character in specification {
            if character == "\"" { quoted.toggle() }
            if !quoted && character == "(" { depth += 1 }
            if !quoted && character == ")" { depth -= 1 }
            if character == ":" && depth == 0 && !quoted { parts.append(part); part = ""; continue }
            part.append(character)
        }
        parts.append(part)
        // The name runs to the first part that names a filter.
        var name = parts[0], index = 1
        while index < parts.count, !looksLikeFilter(parts[index]) {
            name += ":" + parts[index]
            index += 1
        }
        guard !name.isEmpty else { throw fail("no field name") }
        var filters: [Filter] = []
        for text in parts[index...] { filters.append(try filter(text, fail: fail)) }
        return Placeholder(name: name, filters: filters, absence: absence, source: "{\(inner)}")
    }

    /// Whether `text` is a known filter's name, or anything with a `(`
    /// (`numbr(2)`, `number(2`: a misspelt filter, reported as one, not taken as part of a field's name).
    private static func looksLikeFilter(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("(") { return true }
        return Filter.nameList.contains(trimmed)
    }

    private static func filter(_ text: String, fail: (String) -> SpriteError) throws(SpriteError) -> Filter {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var name = trimmed
        var arguments: [String] = []
        if let open = trimmed.firstIndex(of: "(") {
            guard trimmed.hasSuffix(")") else { throw fail("filter '\(trimmed)': expected ')' at its end") }
            name = String(trimmed[..<open]).trimmingCharacters(in: .whitespaces)
            arguments = try splitArguments(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]),
                                           filter: name, fail: fail)
        }
        func integer(_ index: Int, _ range: ClosedRange<Int>) throws(SpriteError) -> Int {
            guard let value = Int(arguments[index]), range.contains(value) else {
                throw fail("\(name): '\(arguments[index])' is not a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        func quoted(_ index: Int) throws(SpriteError) -> String {
            let argument = arguments[index]
            guard argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") else {
                throw fail("\(name): '\(argument)' is not text in double quotes")
            }
            return String(argument.dropFirst().dropLast())
        }
        func count(_ allowed: ClosedRange<Int>) throws(SpriteError) {
            guard allowed.contains(arguments.count) else {
                let expected = allowed.lowerBound == allowed.upperBound ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
                throw fail("\(name) takes \(expected) argument\(allowed.upperBound == 1 ? "" : "s"), not \(arguments.count)")
            }
        }
        switch name {
        case "number":
            try count(0...3)
            let decimals = arguments.isEmpty ? nil : try integer(0, 0...Limits.maximumDecimals)
            let group = arguments.count > 1 ? try quoted(1) : ","
            let point = arguments.count > 2 ? try quoted(2) : "."
            return .number(decimals: decimals, group: group, point: point)
        case "upper": try count(0...0); return .upper
        case "lower": try count(0...0); return .lower
        case "trim": try count(0...0); return .trim
        case "truncate":
            try count(1...2)
            return .truncate(try integer(0, 1...Limits.maximumTruncation), ellipsis: arguments.count > 1 ? try quoted(1) : "…")
        default:
            throw fail("unknown filter '\(name)' (filters: \(Filter.names))")
        }
    }

    /// `2, " ", ","` → `["2", "\" \"", "\",\""]`: commas inside double quotes belong to the argument.
    private static func splitArguments(_ text: String, filter: String, fail: (String) -> SpriteError) throws(SpriteError) -> [String] {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
        var arguments: [String] = [], current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted { arguments.append(current); current = ""; continue }
            current.append(character)
        }
        if quoted { throw fail("\(filter): a '\"' is never closed") }
        arguments.append(current)
        return arguments.map { argument in
            // Spaces around an argument go; inside quotes they stay.
            argument.trimmingCharacters(in: .whitespaces)
        }
    }
}

// MARK: Numbers

/// Number formatting on the decimal digits as written: no binary floating
/// point in between, so `0.125` rounds to `0.13` and a 20-digit id stays exact.
enum NumberFormat {
    /// `text` (`-1234.5`, `1e3`, `+7`) with its thousands grouped by `group`
    /// and `point` before its decimals, rounded to `decimals` when given;
    /// nil when `text` is not a decimal number.
    static func format(_ text: String, decimals: Int?, group: String, point: String) -> String? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var digits: [UInt8] = []          // integer and fraction digits together, as values 0...9
        var integerCount = 0
        while index < bytes.count, isDigit(bytes[index]) { digits.append(bytes[index] - 48); index += 1 }
        integerCount = digits.count
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { digits.append(bytes[index] - 48); index += 1 }
        }
        guard !digits.isEmpty else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0, exponentDigits = 0
            while index < bytes.count, isDigit(bytes[index]) {
                exponent = exponent * 10 + Int(bytes[index] - 48)
                exponentDigits += 1
                index += 1
                guard exponent <= FieldTemplate.Limits.maximumExponent else { return nil }
            }
            guard exponentDigits > 0 else { return nil }
            integerCount += exponentNegative ? -exponent : exponent
        }
        guard index == bytes.count else { return nil }
        // The point moved outside the digits: pad with zeros.
        if integerCount < 0 { digits.insert(contentsOf: repeatElement(0, count: -integerCount), at: 0); integerCount = 0 }
        if integerCount > digits.count { digits.append(contentsOf: repeatElement(0, count: integerCount - digits.count)) }
        if let decimals {
            let keep = integerCount + decimals
            if digits.count > keep {
                let roundsUp = digits[keep] >= 5           // half away from zero
                digits.removeSubrange(keep...)
                if roundsUp {
                    var position = keep - 1
                    while position >= 0 && digits[position] == 9 { digits[position] = 0; position -= 1 }
                    if position >= 0 { digits[position] += 1 } else { digits.insert(1, at: 0); integerCount += 1 }
                }
            } else {
                digits.append(contentsOf: repeatElement(0, count: keep - digits.count))
            }
        }
        // Leading zeros of the integer part go (one stays).
        var leading = 0
        while leading < integerCount - 1 && digits[leading] == 0 { leading += 1 }
        let integerDigits = digits[leading..<integerCount], fractionDigits = digits[integerCount...]
        let integerText = integerDigits.isEmpty ? [UInt8(ascii: "0")] : integerDigits.map { $0 + 48 }
        var result = negative && digits.contains(where: { $0 != 0 }) ? "-" : ""
        for (position, digit) in integerText.enumerated() {
            if position > 0 && (integerText.count - position) % 3 == 0 { result += group }
            result.unicodeScalars.append(Unicode.Scalar(digit))
        }
        if !fractionDigits.isEmpty {
            result += point
            for digit in fractionDigits { result.unicodeScalars.append(Unicode.Scalar(digit + 48)) }
        }
        return result
    }
}
