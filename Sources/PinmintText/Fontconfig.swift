import CFontconfigShim
import Foundation

// Every raw fontconfig call of Pinmint lives in this file.

/// A font face fontconfig knows about.
package struct SystemFont: Sendable, Hashable {
    /// The font file's path, as fontconfig lists it.
    package let file: String
    /// The face's index inside the file (0 unless a collection).
    package let index: Int
    /// Family name, e.g. "DejaVu Sans".
    package let family: String
    /// Style name, e.g. "Bold Oblique".
    package let style: String
    /// OS/2-style weight (100…900), converted from fontconfig's scale.
    package let weight: Int
    /// True for italic and oblique faces (fontconfig's slant above roman).
    package let isItalic: Bool
}

/// The fonts installed on the system, as fontconfig lists them (the way
/// every Linux program finds fonts: `/etc/fonts/fonts.conf`, user folders,
/// `FONTCONFIG_FILE` for another configuration).
enum Fontconfig {
    /// The configuration, loaded once per process (Swift's `static let`
    /// runs its initializer once, whatever the threads), and kept.
    nonisolated(unsafe) private static let configuration: OpaquePointer? = FcInitLoadConfigAndFonts()
    private static let lock = NSLock()

    /// Every installed face, sorted by file and index; worked out once per
    /// process; empty when fontconfig cannot start.
    static let installed: [SystemFont] = {
        final class Collector { var fonts: [SystemFont] = [] }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        lock.lock()
        let count = pinmint_fc_list_fonts(configuration, { file, index, family, style, weight, slant, context in
            guard let file, let context else { return }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            collector.fonts.append(SystemFont(file: String(cString: file), index: Int(index),
                                              family: family.map { String(cString: $0) } ?? "",
                                              style: style.map { String(cString: $0) } ?? "",
                                              weight: Fontconfig.openTypeWeight(Int(weight)), isItalic: slant != 0))
        }, context)
        lock.unlock()
        guard count >= 0 else { return [] }
        return collector.fonts.sorted { ($0.file, $0.index) < ($1.file, $1.index) }
    }()

    static func installedFonts() -> [SystemFont] { installed }

    /// The installed face fontconfig prefers for `scalar` at `weight`
    /// (OS/2's 100…900) and `italic`, among those that have it (with
    /// `color`, among the colour fonts that have it); nil when none has it.
    static func font(for scalar: UInt32, weight: Int, italic: Bool, color: Bool = false) -> SystemFont? {
        var file = [CChar](repeating: 0, count: 4096)
        var index: Int32 = 0
        lock.lock()
        let found = pinmint_fc_font_for_character(configuration, scalar, Int32(fontconfigWeight(weight)), italic ? 100 : 0,
                                                  color ? 1 : 0, &file, Int32(file.count), &index)
        lock.unlock()
        guard found == 1 else { return nil }
        let path = file.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return installed.first { $0.file == path && $0.index == Int(index) }
            ?? SystemFont(file: path, index: Int(index), family: "", style: "", weight: weight, isItalic: italic)
    }

    /// fontconfig's weight scale (0 thin … 80 regular … 200 bold … 210
    /// black) as OS/2's 100…900, by the table fontconfig itself maps with
    /// (FcWeightToOpenType).
    static func openTypeWeight(_ weight: Int) -> Int {
        guard weight > 0 else { return 100 }
        for pair in weightTable.indices.dropFirst() where weight <= weightTable[pair].fontconfig {
            let low = weightTable[pair - 1], high = weightTable[pair]
            return low.openType + (weight - low.fontconfig) * (high.openType - low.openType) / max(1, high.fontconfig - low.fontconfig)
        }
        return 1000
    }

    /// OS/2's 100…900 as fontconfig's scale (FcWeightFromOpenType).
    static func fontconfigWeight(_ weight: Int) -> Int {
        guard weight > 100 else { return 0 }
        for pair in weightTable.indices.dropFirst() where weight <= weightTable[pair].openType {
            let low = weightTable[pair - 1], high = weightTable[pair]
            return low.fontconfig + (weight - low.openType) * (high.fontconfig - low.fontconfig) / max(1, high.openType - low.openType)
        }
        return 215
    }

    private static let weightTable: [(fontconfig: Int, openType: Int)] = [
        (0, 100), (40, 200), (50, 300), (55, 350), (75, 380), (80, 400), (100, 500), (180, 600), (200, 700), (205, 800),
        (210, 900), (215, 1000),
    ]
}
