import Foundation
import Testing

struct FontsCommandTests {
    @Test func listsTheShippedFamiliesAsJSON() throws {
        let result = try runPinmint(["fonts", "--no-system", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let families = try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]]
        let names = Set((families ?? []).compactMap { $0["family"] as? String })
        #expect(names.isSuperset(of: ["Noto Sans", "Noto Sans CJK SC"]), "\(names)")
        let cjk = families?.first { $0["family"] as? String == "Noto Sans CJK SC" }
        let scripts = cjk?["scripts"] as? [String] ?? []
        #expect(scripts.contains("CJK Han") && scripts.contains("Hangul") && scripts.contains("Kana"), "\(scripts)")
    }

    @Test func aMissingFontFolderIsOneLineAndExitCodeTwo() throws {
        let result = try runPinmint(["fonts", "--font-dir", "/nonexistent-pinmint-fonts"])
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("/nonexistent-pinmint-fonts"))
    }
}
