import CFriBidiShim

/// The direction a paragraph is read in.
public enum TextDirection: String, Sendable, CaseIterable {
    /// From the first strong character (UAX #9 rules P2 and P3): Arabic or
    /// Hebrew first reads right to left; anything else, or none, left to right.
    case auto
    /// Left to right whatever the text (`"ltr"`, as HTML's `dir`); right-to-left
    /// runs inside still read right to left, placed by the bidi algorithm.
    case leftToRight = "ltr"
    /// Right to left whatever the text (`"rtl"`): lines start at the right
    /// edge and `start` alignment means right.
    case rightToLeft = "rtl"
}

// Every raw FriBidi call of Pinmint lives in this file.

/// The Unicode Bidirectional Algorithm (UAX #9) through GNU FriBidi:
/// embedding levels per code point, and the visual order of a line's runs.
enum Bidi {
    /// The resolved embedding level of each code point of one paragraph
    /// (even: left to right, odd: right to left) and the paragraph's own
    /// level (0 or 1). A paragraph of left-to-right text only (checked
    /// first, without FriBidi) is all level 0.
    static func levels(_ text: [UInt32], direction: TextDirection) -> (levels: [UInt8], paragraphLevel: UInt8) {
        if direction != .rightToLeft && !text.contains(where: mayBeRightToLeft) {
            // Not `Array(repeating:count:)`: its allocation is a generic call
            // into the standard library (some 650 instructions a label).
            return (Array(repeatElement(0, count: text.count)), 0)
        }
        var levels = [Int8](repeating: 0, count: text.count)
        let base: Int32 = switch direction {
        case .auto: Int32(pinmint_fribidi_base_auto)
        case .leftToRight: Int32(pinmint_fribidi_base_ltr)
        case .rightToLeft: Int32(pinmint_fribidi_base_rtl)
        }
        let paragraph = text.withUnsafeBufferPointer { pointer in
            levels.withUnsafeMutableBufferPointer { pinmint_fribidi_levels(pointer.baseAddress, Int32(text.count), base, $0.baseAddress) }
        }
        // Out of memory: left to right rather than nothing.
        guard paragraph >= 0 else { return ([UInt8](repeating: 0, count: text.count), 0) }
        return (levels.map { UInt8(bitPattern: $0) }, UInt8(paragraph))
    }

    /// Whether a code point can start right-to-left text or change levels:
    /// the right-to-left blocks (Hebrew, Arabic, Syriac, Thaana, NKo,
    /// Samaritan, Mandaic, their presentation forms, and the RTL planes'
    /// ranges) and the explicit formatting characters.
    private static func mayBeRightToLeft(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF,
             0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The visual order of a line's runs from their levels (rule L2): from
    /// the highest level down to the lowest odd one, every maximal sequence
    /// of runs at that level or higher is reversed. Returns run indices,
    /// left to right.
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), highest > 0 else { return order }
        let lowestOdd = (levels.min() ?? 0) | 1
        var level = highest
        while level >= lowestOdd {
            var index = 0
            while index < order.count {
                guard levels[order[index]] >= level else { index += 1; continue }
                var end = index
                while end < order.count && levels[order[end]] >= level { end += 1 }
                order[index..<end].reverse()
                index = end
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
