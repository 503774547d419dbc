import CFontconfigShim

// Every raw fontconfig call of Pinmint lives in this file.

/// A font face fontconfig knows about.
public struct SystemFont: Sendable, Hashable {
    public let file: String
    public let index: Int
    public let family: String
    public let style: String
    /// OS/2-style weight (100…900), converted from fontconfig's scale.
    public let weight: Int
    public let isItalic: Bool
}

/// The fonts installed on the system, as fontconfig lists them (the way
/// every Linux program finds fonts: `/etc/fonts/fonts.conf`, user folders,
/// `FONTCONFIG_FILE` for another configuration).
enum Fontconfig {
    /// Every installed face, sorted by file and index; empty when fontconfig cannot start.
    static func installedFonts() -> [SystemFont] {
        final class Collector { var fonts: [SystemFont] = [] }
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        let count = pinmint_fc_list_fonts({ file, index, family, style, weight, slant, context in
            guard let file, let context else { return }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            collector.fonts.append(SystemFont(file: String(cString: file), index: Int(index),
                                              family: family.map { String(cString: $0) } ?? "",
                                              style: style.map { String(cString: $0) } ?? "",
                                              weight: Fontconfig.openTypeWeight(Int(weight)), isItalic: slant != 0))
        }, context)
        guard count >= 0 else { return [] }
        return collector.fonts.sorted { ($0.file, $0.index) < ($1.file, $1.index) }
    }

    /// fontconfig's weight scale (0 thin … 80 regular … 200 bold … 210
    /// black) as OS/2's 100…900, by the table fontconfig itself maps with
    /// (FcWeightToOpenType).
    static func openTypeWeight(_ weight: Int) -> Int {
        let table: [(Int, Int)] = [(0, 100), (40, 200), (50, 300), (55, 350), (75, 380), (80, 400), (100, 500), (180, 600),
                                   (200, 700), (205, 800), (210, 900), (215, 1000)]
        guard weight > 0 else { return 100 }
        for pair in table.indices.dropFirst() where weight <= table[pair].0 {
            let (low, lowWeight) = table[pair - 1], (high, highWeight) = table[pair]
            return lowWeight + (weight - low) * (highWeight - lowWeight) / max(1, high - low)
        }
        return 1000
    }
}
