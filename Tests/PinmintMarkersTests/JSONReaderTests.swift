@testable import PinmintMarkers
import Testing

struct JSONReaderTests {
    static func read(_ text: String, depth: Int = 64) throws(JSONReader.Problem) -> JSONValue {
        try JSONReader.parse(Array(text.utf8), maximumDepth: depth)
    }

    static let values: [(text: String, value: JSONValue)] = [
        ("null", .null), (" true ", .bool(true)), ("false", .bool(false)),
        ("0", .number(0)), ("-0.5e2", .number(-50)), ("1E+2", .number(100)), ("123456789012", .number(123456789012)),
        (#""a\"b\\c\/d\b\f\n\r\t""#, .string("a\"b\\c/d\u{8}\u{C}\n\r\t")),
        (#""\u00e9\u20AC\ud83d\ude00""#, .string("é€😀")), (#""café 5200萬""#, .string("café 5200萬")),
        ("[]", .array([])), ("{}", .object([:])), ("[1, [2, {}], \"x\"]", .array([.number(1), .array([.number(2), .object([:])]), .string("x")])),
        ("{\"a\": {\"b\": [null]}}", .object(["a": .object(["b": .array([.null])])])),
        ("\u{FEFF}{}", .object([:])),
    ]

    @Test(arguments: values)
    func valuesAreRead(_ example: (text: String, value: JSONValue)) throws {
        #expect(try Self.read(example.text) == example.value)
    }

    static let refusals: [(text: String, message: String)] = [
        ("", "unexpected end of the text (expected a value)"),
        ("{\"a\": 1", "unexpected end of the text: the object at character 1 is not closed"),
        ("[1, 2", "unexpected end of the text: the array at character 1 is not closed"),
        ("\"abc", "unexpected end of the text: the string at character 1 is not closed"),
        ("[1,]", "a comma before the closing ] at character 3"),
        ("{\"a\": 1 , }", "a comma before the closing } at character 9"),
        ("[1 2]", "expected ',' or ']' at character 4, found '2'"),
        ("{\"a\" 1}", "expected ':' after the key at character 6, found '1'"),
        ("{a: 1}", "expected a key (a string in quotes) at character 2, found 'a'"),
        ("tru", "expected a value at character 1, found 't'"),
        ("nul", "expected a value at character 1, found 'n'"),
        ("01", "a number with a leading zero at character 1"),
        ("-", "expected a digit at character 2, found the end of the text"),
        ("1.", "expected a digit after '.' at character 3, found the end of the text"),
        ("1e", "expected a digit in the exponent at character 3, found the end of the text"),
        (".5", "expected a value at character 1, found '.'"),
        ("+1", "expected a value at character 1, found '+'"),
        ("NaN", "expected a value at character 1, found 'N'"),
        ("1e400", "the number 1e400 at character 1 is out of range (beyond ±1.7976931348623157e+308)"),
        ("[1e-400]", "the number 1e-400 at character 2 is out of range (too close to 0: the smallest a number can be is ±5e-324)"),
        ("\"a\nb\"", "a control character (byte 0x0A) in a string at character 3 (write it as an escape, e.g. \\n)"),
        (#""\x""#, "an unknown escape '\\x' at character 2"),
        (#""\u12""#, "a \\u escape needs four hexadecimal digits (at character 2)"),
        (#""\ud800""#, "a lone surrogate escape \\uD800 at character 2 (it needs its pair)"),
        (#""\udc00x""#, "a lone surrogate escape \\uDC00 at character 2 (it needs its pair)"),
        ("{} {}", "unexpected '{' after the end of the JSON value at character 4"),
        ("[1]\u{0}", "unexpected byte 0x00 after the end of the JSON value at character 4"),
        ("{\"a\": 1, \"a\": 2}", "given twice in one object (only one would be used)"),
    ]

    @Test(arguments: refusals)
    func malformedJSONIsRefused(_ example: (text: String, message: String)) {
        do {
            let value = try Self.read(example.text)
            Issue.record("\(example.text) read as \(value)")
        } catch {
            #expect(error.message.hasPrefix(example.message), "\(error.message)")
        }
    }

    @Test func invalidUTF8NamesItsByte() {
        do {
            _ = try JSONReader.parse(Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\"]".utf8), maximumDepth: 4)
            Issue.record("accepted")
        } catch {
            #expect(error.message == "a string that is not valid UTF-8 (byte 5 is 0xC3)")
        }
    }

    @Test func aKeyGivenTwiceNamesItsPlace() {
        do {
            _ = try Self.read(#"{"marker": {"children": [{}, {"fill": 1, "fill": 2}]}}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .duplicateKey(place: "marker.children[1].fill"))
        }
    }

    /// 50 KB of arrays nested 510 deep took 38 s to decode before the depth
    /// check ran; the reader refuses the 65th level as it opens it, so
    /// nesting a million deep costs no more than the first 65 brackets.
    @Test(arguments: [510, 1_000_000])
    func depthIsRefusedWhileReading(_ depth: Int) {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        do {
            _ = try Self.read(text)
            Issue.record("accepted")
        } catch {
            #expect(error.kind == .tooDeep)
            #expect(error.message == "nested deeper than 64 levels (at character 65)")
        }
    }

    @Test func sixtyFourLevelsAreRead() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        var value = try Self.read(text)
        var levels = 0
        while case .array(let items) = value { levels += 1; value = items.first ?? .null }
        #expect(levels == 64)
    }
}
