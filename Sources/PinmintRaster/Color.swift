import Foundation
import PinmintGeometry

/// An sRGB colour with straight (not premultiplied) alpha; every component
/// in 0...1. Colours are specified straight, as CSS and SVG write them; the
/// canvas premultiplies them when it draws.
///
/// The components are plain stored properties: one set directly outside
/// 0...1 (or to NaN) is kept as given, but everything that draws or prints
/// the colour reads it clamped to 0...1, NaN as 0 (see `clamped`).
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// sRGB components and straight alpha, 0...1 (not premultiplied: `red` is
    /// the colour's red whatever its alpha). Kept as set; drawn clamped.
    public var red, green, blue, alpha: Double

    /// Components in 0...1; values outside are clamped, NaN becomes 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Color.unit(red); self.green = Color.unit(green)
        self.blue = Color.unit(blue); self.alpha = Color.unit(alpha)
    }

    /// `value` clamped to 0...1, NaN as 0.
    @inline(__always)
    static func unit(_ value: Double) -> Double { value.clamped(to: 0...1) }

    /// The colour with every component clamped to 0...1 (NaN as 0): what a
    /// canvas draws for a colour whose properties were set out of range.
    public var clamped: Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    /// 8-bit components (0...255) and an alpha in 0...1, as CSS `rgba()`.
    public init(red8: Int, green8: Int, blue8: Int, alpha: Double = 1) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255, alpha: alpha)
    }

    /// Fully transparent black (all components 0): what a new canvas holds.
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)

    /// The colour with its alpha multiplied by `opacity` (0...1; clamped, NaN as 0).
    public func withOpacity(_ opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// Relative luminance (WCAG 2), 0 for black to 1 for white.
    public var luminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// `#rrggbb` or `#rrggbbaa` when translucent.
    public var description: String {
        func hex(_ v: Double) -> String {
            let byte = Int((v * 255).rounded())
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        let color = clamped
        return "#" + hex(color.red) + hex(color.green) + hex(color.blue) + (color.alpha < 1 ? hex(color.alpha) : "")
    }
}

/// A colour string that could not be read.
public struct ColorError: Error, Equatable, CustomStringConvertible {
    /// The text that was given.
    public let input: String
    /// What is wrong with it.
    public let problem: String
    /// `colour 'INPUT': PROBLEM`, e.g. "colour 'blu': not a colour (expected
    /// #RGB, ...)", on one line even when the input holds line breaks.
    public var description: String { MessageText.oneLine("colour '\(input)': \(problem)") }
}

extension Color {
    /// Reads a CSS colour: `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`,
    /// `rgb(r, g, b)`, `rgba(r, g, b, a)` (components as 0-255 numbers or
    /// percentages, alpha as 0-1 or a percentage, commas or spaces, CSS
    /// Color 4's `rgb(r g b / a)`), `transparent`, and the 148 CSS named
    /// colours (case-insensitive).
    public init(parsing text: String) throws(ColorError) {
        if let color = Color.plainHex(text) { self = color; return }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if lower.hasPrefix("#") {
            self = try Color.parseHex(String(lower.dropFirst()), input: text)
        } else if lower.hasPrefix("rgb") {
            self = try Color.parseFunction(lower, input: text)
        } else if lower == "transparent" {
            self = .transparent
        } else if let packed = cssNamedColors[lower] {
            self = Color(red8: Int(packed >> 16), green8: Int((packed >> 8) & 0xFF), blue8: Int(packed & 0xFF))
        } else {
            throw ColorError(input: text, problem: "not a colour (expected #RGB, #RRGGBB, rgb(), rgba() or a CSS colour name)")
        }
    }

    /// `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` without spaces, read from
    /// the bytes (marker styles parse the same few colours for every marker);
    /// nil for anything else, which the general reader then takes.
    private static func plainHex(_ text: String) -> Color? {
        var text = text
        return text.withUTF8 { bytes -> Color? in
            guard bytes.count == 4 || bytes.count == 5 || bytes.count == 7 || bytes.count == 9,
                  bytes[0] == UInt8(ascii: "#") else { return nil }
            var packed: UInt32 = 0     // the digits, 4 bits each, first digit highest
            for byte in bytes.dropFirst() {
                let value: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                packed = packed << 4 | UInt32(value)
            }
            let count = bytes.count - 1
            func digit(_ index: Int) -> Int { Int((packed >> UInt32(4 * (count - 1 - index))) & 0xF) }
            switch count {
            case 3, 4:
                return Color(red8: digit(0) * 17, green8: digit(1) * 17, blue8: digit(2) * 17,
                             alpha: count == 4 ? Double(digit(3) * 17) / 255 : 1)
            default:
                return Color(red8: digit(0) * 16 + digit(1), green8: digit(2) * 16 + digit(3), blue8: digit(4) * 16 + digit(5),
                             alpha: count == 8 ? Double(digit(6) * 16 + digit(7)) / 255 : 1)
            }
        }
    }

    private static func parseHex(_ digits: String, input: String) throws(ColorError) -> Color {
        var values: [Int] = []
        for character in digits {
            guard let value = character.hexDigitValue else {
                throw ColorError(input: input, problem: "'\(character)' is not a hexadecimal digit")
            }
            values.append(value)
        }
        switch values.count {
        case 3, 4:
            let c = values.map { $0 * 17 }
            return Color(red8: c[0], green8: c[1], blue8: c[2], alpha: values.count == 4 ? Double(c[3]) / 255 : 1)
        case 6, 8:
            let c = stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] }
            return Color(red8: c[0], green8: c[1], blue8: c[2], alpha: values.count == 8 ? Double(c[3]) / 255 : 1)
        default:
            throw ColorError(input: input, problem: "expected 3, 4, 6 or 8 hexadecimal digits after '#', found \(values.count)")
        }
    }

    private static func parseFunction(_ lower: String, input: String) throws(ColorError) -> Color {
        guard let open = lower.firstIndex(of: "("), lower.hasSuffix(")") else {
            throw ColorError(input: input, problem: "expected rgb(r, g, b) or rgba(r, g, b, a)")
        }
        let name = lower[..<open].trimmingCharacters(in: .whitespaces)
        guard name == "rgb" || name == "rgba" else {
            throw ColorError(input: input, problem: "unknown colour function '\(name)'")
        }
        let body = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]
        let parts = body.replacingOccurrences(of: "/", with: " / ")
            .split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
            .filter { $0 != "/" }
        guard parts.count == 3 || parts.count == 4 else {
            throw ColorError(input: input, problem: "expected 3 or 4 components, found \(parts.count)")
        }
        func component(_ text: String, scale: Double) throws(ColorError) -> Double {
            let isPercent = text.hasSuffix("%")
            guard let value = Double(isPercent ? String(text.dropLast()) : text), value.isFinite else {
                throw ColorError(input: input, problem: "'\(text)' is not a number")
            }
            return isPercent ? value / 100 : value / scale
        }
        let r = try component(parts[0], scale: 255), g = try component(parts[1], scale: 255)
        let b = try component(parts[2], scale: 255)
        let a = parts.count == 4 ? try component(parts[3], scale: 1) : 1
        return Color(red: r, green: g, blue: b, alpha: a)
    }
}

/// CSS Color Module Level 4 named colours, as 0xRRGGBB.
let cssNamedColors: [String: UInt32] = [
    "aliceblue": 0xF0F8FF, "antiquewhite": 0xFAEBD7, "aqua": 0x00FFFF, "aquamarine": 0x7FFFD4,
    "azure": 0xF0FFFF, "beige": 0xF5F5DC, "bisque": 0xFFE4C4, "black": 0x000000,
    "blanchedalmond": 0xFFEBCD, "blue": 0x0000FF, "blueviolet": 0x8A2BE2, "brown": 0xA52A2A,
    "burlywood": 0xDEB887, "cadetblue": 0x5F9EA0, "chartreuse": 0x7FFF00, "chocolate": 0xD2691E,
    "coral": 0xFF7F50, "cornflowerblue": 0x6495ED, "cornsilk": 0xFFF8DC, "crimson": 0xDC143C,
    "cyan": 0x00FFFF, "darkblue": 0x00008B, "darkcyan": 0x008B8B, "darkgoldenrod": 0xB8860B,
    "darkgray": 0xA9A9A9, "darkgreen": 0x006400, "darkgrey": 0xA9A9A9, "darkkhaki": 0xBDB76B,
    "darkmagenta": 0x8B008B, "darkolivegreen": 0x556B2F, "darkorange": 0xFF8C00, "darkorchid": 0x9932CC,
    "darkred": 0x8B0000, "darksalmon": 0xE9967A, "darkseagreen": 0x8FBC8F, "darkslateblue": 0x483D8B,
    "darkslategray": 0x2F4F4F, "darkslategrey": 0x2F4F4F, "darkturquoise": 0x00CED1, "darkviolet": 0x9400D3,
    "deeppink": 0xFF1493, "deepskyblue": 0x00BFFF, "dimgray": 0x696969, "dimgrey": 0x696969,
    "dodgerblue": 0x1E90FF, "firebrick": 0xB22222, "floralwhite": 0xFFFAF0, "forestgreen": 0x228B22,
    "fuchsia": 0xFF00FF, "gainsboro": 0xDCDCDC, "ghostwhite": 0xF8F8FF, "gold": 0xFFD700,
    "goldenrod": 0xDAA520, "gray": 0x808080, "green": 0x008000, "greenyellow": 0xADFF2F,
    "grey": 0x808080, "honeydew": 0xF0FFF0, "hotpink": 0xFF69B4, "indianred": 0xCD5C5C,
    "indigo": 0x4B0082, "ivory": 0xFFFFF0, "khaki": 0xF0E68C, "lavender": 0xE6E6FA,
    "lavenderblush": 0xFFF0F5, "lawngreen": 0x7CFC00, "lemonchiffon": 0xFFFACD, "lightblue": 0xADD8E6,
    "lightcoral": 0xF08080, "lightcyan": 0xE0FFFF, "lightgoldenrodyellow": 0xFAFAD2, "lightgray": 0xD3D3D3,
    "lightgreen": 0x90EE90, "lightgrey": 0xD3D3D3, "lightpink": 0xFFB6C1, "lightsalmon": 0xFFA07A,
    "lightseagreen": 0x20B2AA, "lightskyblue": 0x87CEFA, "lightslategray": 0x778899, "lightslategrey": 0x778899,
    "lightsteelblue": 0xB0C4DE, "lightyellow": 0xFFFFE0, "lime": 0x00FF00, "limegreen": 0x32CD32,
    "linen": 0xFAF0E6, "magenta": 0xFF00FF, "maroon": 0x800000, "mediumaquamarine": 0x66CDAA,
    "mediumblue": 0x0000CD, "mediumorchid": 0xBA55D3, "mediumpurple": 0x9370DB, "mediumseagreen": 0x3CB371,
    "mediumslateblue": 0x7B68EE, "mediumspringgreen": 0x00FA9A, "mediumturquoise": 0x48D1CC,
    "mediumvioletred": 0xC71585, "midnightblue": 0x191970, "mintcream": 0xF5FFFA, "mistyrose": 0xFFE4E1,
    "moccasin": 0xFFE4B5, "navajowhite": 0xFFDEAD, "navy": 0x000080, "oldlace": 0xFDF5E6,
    "olive": 0x808000, "olivedrab": 0x6B8E23, "orange": 0xFFA500, "orangered": 0xFF4500,
    "orchid": 0xDA70D6, "palegoldenrod": 0xEEE8AA, "palegreen": 0x98FB98, "paleturquoise": 0xAFEEEE,
    "palevioletred": 0xDB7093, "papayawhip": 0xFFEFD5, "peachpuff": 0xFFDAB9, "peru": 0xCD853F,
    "pink": 0xFFC0CB, "plum": 0xDDA0DD, "powderblue": 0xB0E0E6, "purple": 0x800080,
    "rebeccapurple": 0x663399, "red": 0xFF0000, "rosybrown": 0xBC8F8F, "royalblue": 0x4169E1,
    "saddlebrown": 0x8B4513, "salmon": 0xFA8072, "sandybrown": 0xF4A460, "seagreen": 0x2E8B57,
    "seashell": 0xFFF5EE, "sienna": 0xA0522D, "silver": 0xC0C0C0, "skyblue": 0x87CEEB,
    "slateblue": 0x6A5ACD, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xFFFAFA,
    "springgreen": 0x00FF7F, "steelblue": 0x4682B4, "tan": 0xD2B48C, "teal": 0x008080,
    "thistle": 0xD8BFD8, "tomato": 0xFF6347, "turquoise": 0x40E0D0, "violet": 0xEE82EE,
    "wheat": 0xF5DEB3, "white": 0xFFFFFF, "whitesmoke": 0xF5F5F5, "yellow": 0xFFFF00,
    "yellowgreen": 0x9ACD32,
]
