import PinmintGeometry

/// A command-line mistake: printed as one line, exit code 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The command line of one subcommand, read left to right.
///
/// Options are declared up front, so an unknown option, a missing value or
/// a repeated option is an error that names it. `--name value` and
/// `--name=value` are both accepted; `--` ends the options.
struct Arguments {
    let command: String
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - options: options that take a value, with their short aliases (e.g. "-o": "--output").
    ///   - flags: options without a value.
    ///   - repeatable: value options that may appear more than once.
    init(command: String, arguments: [String], valueOptions: Set<String>, flagOptions: Set<String> = [],
         aliases: [String: String] = [:], repeatable: Set<String> = []) throws(UsageError) {
        self.command = command
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument); continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String? = nil
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            name = aliases[name] ?? name
            if flagOptions.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "\(command): \(name) takes no value") }
                flags.insert(name)
            } else if valueOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(message: "\(command): \(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if values[name] != nil && !repeatable.contains(name) {
                    throw UsageError(message: "\(command): \(name) given more than once")
                }
                values[name, default: []].append(value)
            } else {
                throw UsageError(message: "\(command): unknown option '\(argument)' (see '\(command) --help')")
            }
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// A required single positional argument.
    func singlePositional(_ what: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError(message: positionals.isEmpty
                ? "\(command): missing \(what)"
                : "\(command): expected one \(what), got \(positionals.count): \(positionals.joined(separator: " "))")
        }
        return positionals[0]
    }

    /// A number option within `range`, or `defaultValue` when absent. Only
    /// plain decimals are numbers (see `decimal(_:)`).
    func number(_ name: String, default defaultValue: Double, range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let text = value(name) else { return defaultValue }
        guard let number = Arguments.decimal(text) else {
            throw UsageError(message: "\(command): \(name) '\(text)' is not a number")
        }
        guard range.contains(number) else {
            throw UsageError(message: "\(command): \(name) \(text) is out of range "
                             + "(\(range.plainDescription))")
        }
        return number
    }

    /// A whole-number option within `range`, or `defaultValue` when absent:
    /// decimal digits only ("4"; not "1.5", "0x4" or "4k").
    func integer(_ name: String, default defaultValue: Int, range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        guard text.wholeMatch(of: /[+-]?[0-9]+/) != nil, let number = Int(text) else {
            throw UsageError(message: "\(command): \(name) '\(text)' is not a whole number")
        }
        guard range.contains(number) else {
            throw UsageError(message: "\(command): \(name) \(text) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return number
    }

    /// A plain decimal number: an optional sign, digits, an optional
    /// fraction ("2", "-0.5", ".25", "3."). Not hexadecimal ("0x2", which
    /// `Double` reads as 2), exponents, "inf", "nan" or surrounding spaces.
    static func decimal(_ text: String) -> Double? {
        guard text.wholeMatch(of: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)/) != nil else { return nil }
        return Double(text)
    }
}
