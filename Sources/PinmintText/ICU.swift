import CICUShim

// Every raw ICU call of Pinmint lives in this file.

/// Line break opportunities by ICU's line break iterator: the rules of
/// UAX #14 (Unicode 15 in Debian 12's ICU 72), with ICU's dictionaries
/// for the scripts that write no spaces between words (Thai, Lao, Khmer,
/// Burmese) and its CJK rules (no break before small kana and closing
/// punctuation; `ja` tightens them).
enum ICULineBreaks {
    /// For each code point of `text`, whether a line may start before it
    /// (index 0 is never an opportunity) and whether it must (after a line
    /// separator). `language` (BCP 47, e.g. "ja", "th") tailors the rules.
    static func opportunities(_ text: [UInt32], language: String?) -> (allowed: [Bool], mandatory: [Bool]) {
        var allowed = [Bool](repeating: false, count: text.count)
        var mandatory = [Bool](repeating: false, count: text.count)
        guard text.count > 1 else { return (allowed, mandatory) }
        // UTF-16 for ICU, with the code point index of each unit.
        var units: [UInt16] = []
        units.reserveCapacity(text.count)
        var scalarAt: [Int32] = []
        scalarAt.reserveCapacity(text.count + 1)
        for (index, scalar) in text.enumerated() {
            if scalar >= 0x10000 {
                let value = scalar - 0x10000
                units.append(UInt16(0xD800 + (value >> 10)))
                units.append(UInt16(0xDC00 + (value & 0x3FF)))
                scalarAt.append(Int32(index)); scalarAt.append(Int32(index))
            } else {
                units.append(UInt16(scalar))
                scalarAt.append(Int32(index))
            }
        }
        scalarAt.append(Int32(text.count))
        var positions = [Int32](repeating: 0, count: units.count + 1)
        var hard = [UInt8](repeating: 0, count: units.count + 1)
        var error: Int32 = 0
        let count = units.withUnsafeBufferPointer { unitPointer in
            positions.withUnsafeMutableBufferPointer { positionPointer in
                hard.withUnsafeMutableBufferPointer { hardPointer in
                    (language ?? "").withCString { locale in
                        pinmint_icu_line_breaks(unitPointer.baseAddress, Int32(units.count), locale, positionPointer.baseAddress,
                                                hardPointer.baseAddress, Int32(positionPointer.count), &error)
                    }
                }
            }
        }
        // ICU without its data: breaks after spaces, as a last resort.
        guard count >= 0 else {
            for index in 1..<text.count where text[index - 1] == 0x20 && text[index] != 0x20 { allowed[index] = true }
            return (allowed, mandatory)
        }
        for slot in 0..<Int(count) {
            let scalar = Int(scalarAt[Int(positions[slot])])
            guard scalar > 0 && scalar < text.count else { continue }
            allowed[scalar] = true
            if hard[slot] != 0 { mandatory[scalar] = true }
        }
        return (allowed, mandatory)
    }
}
