import Foundation
import Testing
@testable import PinmintText

/// Where Pinmint's own fonts are looked for: `$PINMINT_FONTS`, then
/// `../share/pinmint/fonts` beside the executable, then the checkout.
struct ShippedFontsTests {
    /// A prefix laid out as `make install` lays it out, with `fonts` font files (none: an empty folder).
    private func prefix(fonts: Int) throws -> URL {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-prefix-\(UUID().uuidString)")
        let share = prefix.appendingPathComponent("share/pinmint/fonts")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        for index in 0..<fonts {
            try FileManager.default.copyItem(atPath: ShippedFonts.checkoutFonts + "/NotoSansHebrew-Regular.ttf",
                                             toPath: share.appendingPathComponent("face\(index).ttf").path)
        }
        return prefix
    }

    @Test func anInstalledPrefixComesBeforeTheCheckout() throws {
        let prefix = try prefix(fonts: 1)
        defer { try? FileManager.default.removeItem(at: prefix) }
        let binary = prefix.appendingPathComponent("bin/pinmint").path
        let location = ShippedFonts.locate(environment: [:], executable: binary, checkoutFonts: ShippedFonts.checkoutFonts)
        #expect(location.found?.folder == prefix.appendingPathComponent("share/pinmint/fonts").path)
        #expect(location.found?.origin == .installed)
        #expect(location.description == "\(prefix.path)/share/pinmint/fonts (installed beside \(binary))")
    }

    @Test func withoutAnInstallTheCheckoutsFontsAreUsed() throws {
        let prefix = try prefix(fonts: 0)  // an empty share/pinmint/fonts does not count
        defer { try? FileManager.default.removeItem(at: prefix) }
        let location = ShippedFonts.locate(environment: [:], executable: prefix.appendingPathComponent("bin/pinmint").path,
                                           checkoutFonts: ShippedFonts.checkoutFonts)
        #expect(location.found?.origin == .checkout)
        #expect(location.found?.folder == ShippedFonts.checkoutFonts)
        #expect(location.places.map(\.origin) == [.installed, .checkout])
    }

    @Test func theVariableOverridesEveryOtherPlace() throws {
        let prefix = try prefix(fonts: 1)
        defer { try? FileManager.default.removeItem(at: prefix) }
        let location = ShippedFonts.locate(environment: ["PINMINT_FONTS": "/somewhere/fonts"],
                                           executable: prefix.appendingPathComponent("bin/pinmint").path,
                                           checkoutFonts: ShippedFonts.checkoutFonts)
        #expect(location.places.map(\.folder) == ["/somewhere/fonts"])
        #expect(location.found?.origin == .variable)
    }

    /// A binary copied away from its prefix and its checkout: one line that
    /// names each place looked at and what to do.
    @Test func foundNowhereNamesEveryPlaceOnOneLine() throws {
        let prefix = try prefix(fonts: 0)
        defer { try? FileManager.default.removeItem(at: prefix) }
        let binary = prefix.appendingPathComponent("bin/pinmint").path
        let checkout = prefix.appendingPathComponent("gone/Fonts").path
        let location = ShippedFonts.locate(environment: ["PINMINT_FONTS": ""], executable: binary, checkoutFonts: checkout)
        #expect(location.found == nil)
        #expect(location.description == "Pinmint's fonts not found: looked in \(prefix.path)/share/pinmint/fonts "
                + "(installed beside \(binary)), \(checkout) (the checkout it was built from); "
                + "install them with 'make install PREFIX=…' or set PINMINT_FONTS to a folder of fonts")
        #expect(!location.description.contains("\n"))
    }

    /// The test runner sits in .build/debug, with no share/pinmint/fonts
    /// two folders up, so its fonts come from this checkout.
    @Test func thisProcessFindsTheCheckoutsFonts() throws {
        let executable = try #require(ShippedFonts.executablePath)
        #expect(executable.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: executable))
        let location = ShippedFonts.locate(environment: [:], executable: executable, checkoutFonts: ShippedFonts.checkoutFonts)
        #expect(location.found?.origin == .checkout)
        #expect(FileManager.default.fileExists(atPath: ShippedFonts.checkoutFonts + "/NotoSans-Regular-Subset.ttf"))
    }
}
