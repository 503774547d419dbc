import Foundation
import PinmintPNG
import Testing

/// `pinmint batch` when rows, outputs or the process itself misbehave:
/// messages stay one line each, a row's failure stays the row's, and an
/// interrupted or failed batch leaves nothing of its own behind.
@Suite struct BatchRobustnessTests {
    /// An id or a value with a newline or an escape sequence printed the raw
    /// characters: one message over three lines, colours on the terminal.
    @Test func failedRowMessagesAreOneLineWithControlCharactersEscaped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("nl.csv"), jsonl = folder.appendingPathComponent("nl.jsonl")
        try Data("id,c\n\"a\nb\",x\n\"c\u{1B}[31mRED\",y\nr1,\"re\nd\"\n".utf8).write(to: csv)
        try Data(#"{"id":"a\nb"}"#.utf8 + Data("\n".utf8)).write(to: jsonl)
        let rows = try runPinmint(["batch", csv.path, "-o", folder.appendingPathComponent("o").path, "--style", "pin",
                                   "--set", "fill={c}"])
        #expect(rows.status == 1)
        let allowed = "(allowed: letters, digits and -_.+,=()@ and spaces)"
        #expect(rows.standardError == "pinmint: \(csv.path):2: the id 'a\\nb' holds '\\n' \(allowed)\n"
                + "pinmint: \(csv.path):4: the id 'c\\u{1B}[31mRED' holds '\\u{1B}' \(allowed)\n"
                + "pinmint: \(csv.path):5: fill 're\\nd': colour 're\\nd': not a colour "
                + "(expected #RGB, #RRGGBB, rgb(), rgba() or a CSS colour name)\n")
        let lines = try runPinmint(["batch", jsonl.path, "-o", folder.appendingPathComponent("o2").path, "--style", "pin"])
        #expect(lines.status == 1)
        #expect(lines.standardError == "pinmint: \(jsonl.path):1: the id 'a\\nb' holds '\\n' \(allowed)\n")
    }
}

extension BatchRobustnessTests {
    /// `--set id=a --set id=b` used b while a repeated `--set label` was refused.
    @Test(arguments: ["id", "label"])
    func aRepeatedSetIsRefused(_ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv")
        try Data("id,n\na,1\n".utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--set", "\(name)={n}", "--set", "\(name)=x{n}"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: batch: --set \(name) given more than once\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
