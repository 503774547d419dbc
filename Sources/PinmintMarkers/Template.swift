/// A variant's part tree with its placeholders and conditions found once,
/// when the style is read, so that filling options in (once per marker in a
/// batch) walks a ready structure: constant subtrees are reused as they are,
/// and strings are not searched again. The rules are in `MarkerStyle`'s
/// documentation; unknown options and filters are errors when the style is
/// read, naming their place.
indirect enum Template: Sendable {
    /// No placeholder or condition inside.
    case constant(JSONValue)
    /// Exactly `"${expression}"`: the option's value with its type.
    case whole(Expression)
    /// Literal text with placeholders inside.
    case text([Segment])
    case array([Template])
    /// Members, kept only when every condition holds.
    case object([(key: String, value: Template)], conditions: [Condition])

    enum Segment: Sendable {
        case literal(String)
        case expression(Expression)
    }

    struct Expression: Sendable {
        enum Filter: String, Sendable, CaseIterable { case initials, upper, lower, trim }
        let option: String
        let filters: [Filter]
    }

    /// `when` (every test holds) or `unless` (no test holds); a test holds
    /// when any of its alternatives (`a|b`) does.
    struct Condition: Sendable {
        let isWhen: Bool
        let tests: [[Test]]
    }

    struct Test: Sendable {
        enum Comparison: Sendable { case isSet, equals(String), differs(String) }
        let option: String
        let comparison: Comparison
    }

    // MARK: Compiling

    /// Compiles `value`; `options` are the names a placeholder may use.
    static func compile(_ value: JSONValue, path: String, input: String, options: Set<String>) throws(MarkerError) -> Template {
        switch value {
        case .string(let text):
            return try compileString(text, path: path, input: input, options: options)
        case .array(let items):
            var compiled: [Template] = []
            for (index, item) in items.enumerated() {
                compiled.append(try compile(item, path: "\(path)[\(index)]", input: input, options: options))
            }
            let constants = compiled.compactMap { if case .constant(let item) = $0 { item } else { nil } }
            return constants.count == compiled.count ? .constant(.array(constants)) : .array(compiled)
        case .object(let members):
            var conditions: [Condition] = []
            for key in ["when", "unless"] {
                guard let condition = members[key] else { continue }
                conditions.append(try compileCondition(condition, isWhen: key == "when", path: "\(path).\(key)",
                                                       input: input, options: options))
            }
            var compiled: [(key: String, value: Template)] = []
            var allConstant = conditions.isEmpty
            for key in members.keys.sorted() where key != "when" && key != "unless" {
                let member = try compile(members[key]!, path: "\(path).\(key)", input: input, options: options)
                if case .constant = member {} else { allConstant = false }
                compiled.append((key, member))
            }
            guard allConstant else { return .object(compiled, conditions: conditions) }
            // A constant string may differ from its source ("$${" becomes "${").
            var constant: [String: JSONValue] = [:]
            for (key, member) in compiled { if case .constant(let item) = member { constant[key] = item } }
            return .constant(.object(constant))
        default:
            return .constant(value)
        }
    }

    private static func compileString(_ text: String, path: String, input: String,
                                      options: Set<String>) throws(MarkerError) -> Template {
        let bytes = Array(text.utf8)
        let dollar = UInt8(ascii: "$"), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        guard bytes.indices.dropLast().contains(where: { bytes[$0] == dollar && bytes[$0 + 1] == open }) else {
            return .constant(.string(text))
        }
        var segments: [Segment] = []
        var literal: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == dollar, index + 2 < bytes.count, bytes[index + 1] == dollar, bytes[index + 2] == open {
                literal += [dollar, open]          // "$${" is a literal "${"
                index += 3
                continue
            }
            if bytes[index] == dollar, index + 1 < bytes.count, bytes[index + 1] == open {
                guard let end = bytes[(index + 2)...].firstIndex(of: close) else {
                    throw MarkerError(input: input, path: path, problem: "'${' without a closing '}' in '\(text)'")
                }
                if !literal.isEmpty { segments.append(.literal(String(decoding: literal, as: UTF8.self))); literal = [] }
                let source = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                segments.append(.expression(try compileExpression(source, path: path, input: input, options: options)))
                index = end + 1
                continue
            }
            literal.append(bytes[index])
            index += 1
        }
        if !literal.isEmpty { segments.append(.literal(String(decoding: literal, as: UTF8.self))) }
        if segments.count == 1, case .expression(let expression) = segments[0] { return .whole(expression) }
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            return .constant(.string(segments.map { if case .literal(let l) = $0 { l } else { "" } }.joined()))
        }
        return .text(segments)
    }

    private static func compileExpression(_ source: String, path: String, input: String,
                                          options: Set<String>) throws(MarkerError) -> Expression {
        var pieces = source.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let option = pieces.removeFirst()
        guard options.contains(option) else {
            throw MarkerError(input: input, path: path, problem: "no option named '\(option)'")
        }
        var filters: [Expression.Filter] = []
        for name in pieces {
            guard let filter = Expression.Filter(rawValue: name) else {
                throw MarkerError(input: input, path: path, problem: "unknown filter '\(name)' (expected initials, upper, lower or trim)")
            }
            filters.append(filter)
        }
        return Expression(option: option, filters: filters)
    }

    private static func compileCondition(_ value: JSONValue, isWhen: Bool, path: String, input: String,
                                         options: Set<String>) throws(MarkerError) -> Condition {
        var sources: [(String, String)] = []
        switch value {
        case .string(let text): sources = [(text, path)]
        case .array(let items):
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    throw MarkerError(input: input, path: "\(path)[\(index)]", problem: "expected an option name")
                }
                sources.append((text, "\(path)[\(index)]"))
            }
        default:
            throw MarkerError(input: input, path: path, problem: "expected an option name or a list of them")
        }
        var tests: [[Test]] = []
        for (text, place) in sources {
            // Conditions are not filled in: "t=${t}" would compare t with the text "${t}".
            guard !text.contains("${") else {
                throw MarkerError(input: input, path: place, problem: "'\(text)': a condition names options and compares "
                                  + "them with literal text ('name', 'name=value', 'a|b'); placeholders are not filled in there")
            }
            var alternatives: [Test] = []
            for alternative in text.split(separator: "|").map(String.init) {
                let test: Test
                if let range = alternative.range(of: "!=") {
                    test = Test(option: String(alternative[..<range.lowerBound]),
                                comparison: .differs(String(alternative[range.upperBound...])))
                } else if let range = alternative.range(of: "=") {
                    test = Test(option: String(alternative[..<range.lowerBound]),
                                comparison: .equals(String(alternative[range.upperBound...])))
                } else {
                    test = Test(option: alternative, comparison: .isSet)
                }
                guard options.contains(test.option) else {
                    throw MarkerError(input: input, path: place, problem: "no option named '\(test.option)'")
                }
                alternatives.append(test)
            }
            tests.append(alternatives)
        }
        return Condition(isWhen: isWhen, tests: tests)
    }

    // MARK: Filling in

    /// The JSON with `values` filled in; nil when a condition drops it.
    func fill(_ values: [String: JSONValue]) -> JSONValue? {
        switch self {
        case .constant(let value): return value
        case .whole(let expression): return expression.evaluate(values)
        case .text(let segments):
            var result = ""
            for segment in segments {
                switch segment {
                case .literal(let text): result += text
                case .expression(let expression):
                    switch expression.evaluate(values) {
                    case .string(let s): result += s
                    case .number(let n): result += n.plainDescription
                    case .bool(let b): result += String(b)
                    default: break
                    }
                }
            }
            return .string(result)
        case .array(let items):
            return .array(items.compactMap { $0.fill(values) })
        case .object(let members, let conditions):
            for condition in conditions where condition.holds(values) != condition.isWhen { return nil }
            var result: [String: JSONValue] = [:]
            result.reserveCapacity(members.count)
            for (key, member) in members {
                if let filled = member.fill(values), filled != .null { result[key] = filled }
            }
            return .object(result)
        }
    }
}

extension Template.Expression {
    func evaluate(_ values: [String: JSONValue]) -> JSONValue {
        var value = values[option] ?? .null
        for filter in filters {
            guard case .string(let text) = value else { return value }
            switch filter {
            case .initials: value = .string(Template.initials(text))
            case .upper: value = .string(text.uppercased())
            case .lower: value = .string(text.lowercased())
            case .trim: value = .string(text.trimmingCharacters(in: .whitespaces))
            }
        }
        return value
    }
}

extension Template.Condition {
    /// For `when`: every test holds. For `unless`: some test holds.
    func holds(_ values: [String: JSONValue]) -> Bool {
        let results = tests.lazy.map { alternatives in alternatives.contains { $0.holds(values) } }
        return isWhen ? results.allSatisfy { $0 } : results.contains(true)
    }
}

extension Template.Test {
    func holds(_ values: [String: JSONValue]) -> Bool {
        let value = values[option] ?? .null
        switch comparison {
        case .isSet:
            switch value {
            case .string(let text): return !text.isEmpty && text != "none"
            case .bool(let flag): return flag
            case .number(let number): return number != 0
            default: return false
            }
        case .equals(let expected), .differs(let expected):
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(let n): text = n.plainDescription
            case .bool(let b): text = String(b)
            default: text = ""
            }
            if case .equals = comparison { return text == expected }
            return text != expected
        }
    }
}

extension Template {
    /// "Ada Lovelace" → "AL", "grace" → "G", "张三" → "张": the first letter
    /// of the first and the last word, upper-cased.
    static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace })
        guard let first = words.first?.first else { return "" }
        if words.count == 1 { return String(first).uppercased() }
        return (String(first) + String(words.last!.first!)).uppercased()
    }
}

// MARK: Text options (for MarkerStyle's resolve cache)

extension Template {
    /// The options each variant uses only inside parts' `text` members: the
    /// root and the items of a part's `children` are parts; a `text` member
    /// counts when it is a placeholder or a text with placeholders. An
    /// option used anywhere else (a condition, another member, a `text`
    /// that is not a part's) is left out.
    static func textOnlyOptions(_ variants: [Template]) -> Set<String> {
        var inText = Set<String>(), elsewhere = Set<String>()
        for template in variants { template.collectOptions(isPart: true, inText: &inText, elsewhere: &elsewhere) }
        return inText.subtracting(elsewhere)
    }

    private func collectOptions(isPart: Bool, inText: inout Set<String>, elsewhere: inout Set<String>) {
        switch self {
        case .constant: break
        case .whole, .text: elsewhere.formUnion(options)
        case .array(let items):
            for item in items { item.collectOptions(isPart: false, inText: &inText, elsewhere: &elsewhere) }
        case .object(let members, let conditions):
            for condition in conditions { for alternatives in condition.tests { for test in alternatives { elsewhere.insert(test.option) } } }
            for (key, member) in members {
                switch (isPart, key, member) {
                case (true, "text", .whole), (true, "text", .text):
                    inText.formUnion(member.options)
                case (true, "children", .array(let items)):
                    for item in items { item.collectOptions(isPart: true, inText: &inText, elsewhere: &elsewhere) }
                default:
                    member.collectOptions(isPart: false, inText: &inText, elsewhere: &elsewhere)
                }
            }
        }
    }

    /// The options a placeholder or text with placeholders uses.
    private var options: [String] {
        switch self {
        case .whole(let expression): return [expression.option]
        case .text(let segments):
            return segments.compactMap { if case .expression(let expression) = $0 { expression.option } else { nil } }
        default: return []
        }
    }

    /// Where the parts whose `text` uses one of `options` end up once
    /// `values` are filled in: per variant, the child indices from the root
    /// (items dropped by their conditions do not count), and the `text`
    /// member's template.
    static func textSites(of variants: [Template], options: Set<String>, values: [String: JSONValue]) -> [ResolveCache.Site] {
        var sites: [ResolveCache.Site] = []
        for (variant, template) in variants.enumerated() {
            template.collectSites(variant: variant, indices: [], options: options, values: values, into: &sites)
        }
        return sites
    }

    private func collectSites(variant: Int, indices: [Int], options: Set<String>, values: [String: JSONValue],
                              into sites: inout [ResolveCache.Site]) {
        guard case .object(let members, _) = self else { return }
        for (key, member) in members {
            switch (key, member) {
            case ("text", .whole), ("text", .text):
                if member.options.contains(where: options.contains) {
                    sites.append(ResolveCache.Site(variant: variant, indices: indices, template: member))
                }
            case ("children", .array(let items)):
                var index = 0
                for item in items {
                    // `fill` drops an object whose conditions do not hold; nothing else is dropped.
                    if case .object(_, let conditions) = item,
                       conditions.contains(where: { $0.holds(values) != $0.isWhen }) { continue }
                    item.collectSites(variant: variant, indices: indices + [index], options: options, values: values, into: &sites)
                    index += 1
                }
            default: break
            }
        }
    }
}
