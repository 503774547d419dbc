import PinmintGeometry
import PinmintRaster

// Typed options for the built-in styles, beside the `[String: String]` form
// the command passes (`--fill '#3598DB'`).
//
// Why a struct per preset rather than a checked builder: the option names
// and their types are then checked by the compiler (a misspelt option or a
// number given as text does not build), editors complete them, and each
// struct is a plain value that can be stored and compared. The conversion
// to strings is total and lossless, so the preset's own JSON stays the one
// place that states defaults and ranges: a value out of range is refused by
// the style when it renders, with the same message as on the command line
// (naming the option, e.g. `--font-size`). A builder would have had to
// repeat those ranges in Swift, or throw at every step.

/// The typed options of one built-in style: `MarkerRenderer.render(_:scale:)`
/// renders them. A nil field leaves the preset's default.
public protocol PresetOptions {
    /// The built-in style these options are for (`MarkerStyle.preset(named:)`).
    var presetName: String { get }
    /// The options as the command line gives them: option name to text, only
    /// the fields that are set. `MarkerStyle.resolve(options:)` reads them.
    var strings: [String: String] { get }
}

/// A colour option's value where the preset also takes `auto` or `none`.
public enum ColorChoice: Hashable, Sendable {
    /// This colour (sRGB, straight alpha).
    case color(Color)
    /// `auto`: the preset picks, e.g. black or white text for contrast with the fill.
    case automatic
    /// `none`: the parts drawn in this colour (a border, a shadow, a dot) are left out.
    case off

    /// The option text: `auto`, `none` or the colour as `text(for:)` writes it.
    public var text: String {
        switch self {
        case .color(let color): return ColorChoice.text(for: color)
        case .automatic: return "auto"
        case .off: return "none"
        }
    }

        /// `color` as option text that `Color(parsing:)` reads back to the same
    /// colour: `rgba(r, g, b, a)` with red, green and blue in 0...255 (whole
    /// numbers when the colour is 8-bit, as one from `#RRGGBB` is; otherwise
    /// the shortest decimal, which reads back to within the last bit) and alpha
    /// exactly as stored. Components are clamped to 0...1 first, as drawing does.
    public static func text(for color: Color) -> String {
        let color = color.clamped
        func channel(_ value: Double) -> String {
            let scaled = value * 255, whole = scaled.rounded()
            return Double(Int(whole)) / 255 == value ? String(Int(whole)) : String(scaled)
        }
        return "rgba(\(channel(color.red)), \(channel(color.green)), \(channel(color.blue)), \(color.alpha.plainDescription))"
    }
}

/// Option text for a number, a flag, a colour: the helpers every options struct uses.
private struct OptionTexts {
    var values: [String: String] = [:]
    mutating func text(_ name: String, _ value: String?) { if let value { values[name] = value } }
    mutating func number(_ name: String, _ value: Double?) { if let value { values[name] = value.plainDescription } }
    mutating func flag(_ name: String, _ value: Bool?) { if let value { values[name] = value ? "true" : "false" } }
    mutating func color(_ name: String, _ value: Color?) { if let value { values[name] = ColorChoice.text(for: value) } }
    mutating func color(_ name: String, _ value: ColorChoice?) { if let value { values[name] = value.text } }
}

/// Options of `price-tag` (and of `seed-price-tag`, which takes the same
/// ones with the seed's text as defaults): a label on a rounded tag with a
/// pointer, and a round badge when asked for. Sizes are in points.
public struct PriceTagOptions: PresetOptions, Hashable, Sendable {
    /// Where the pointer sits under the tag.
    public enum Pointer: String, Hashable, Sendable {
        /// Under the middle of the tag (the default).
        case center
        /// Under the left end.
        case left
        /// Under the right end.
        case right
        /// No pointer (`none`).
        case hidden = "none"
    }

    /// "price-tag" (the default) or "seed-price-tag".
    public var presetName = "price-tag"
    /// The price or text on the tag; empty for the stretchable tag MapLibre fits text into.
    public var label: String?
    /// A glyph in a white circle at the left (the seed's 成); empty for no badge.
    public var badge: String?
    /// The tag's colour (default #3598DB).
    public var fill: Color?
    /// The label's colour; `.automatic` (the default) picks black or white for contrast.
    public var labelColor: ColorChoice?
    /// The badge circle's colour (default white).
    public var badgeColor: Color?
    /// The label's size in points, 6...48 (default 12).
    public var fontSize: Double?
    /// The tag's height in points without the pointer, 16...200 (default 28).
    public var height: Double?
    /// Where the pointer sits (default `.center`).
    public var pointer: Pointer?
    /// A border colour; `.off` (the default) for none.
    public var border: ColorChoice?
    /// The border's width in points, 0.25...8 (default 1).
    public var borderWidth: Double?
    /// A soft drop shadow under the tag (default false).
    public var shadow: Bool?
    /// Font families in fallback order, e.g. "Noto Sans Arabic, Noto Sans"; default Pinmint's fonts.
    public var font: String?

    /// Options with every field at the preset's default.
    public init() {}
    /// Options with a label (and whatever else is set afterwards).
    public init(label: String) { self.label = label }

    /// The set fields under the preset's option names (`label-color`, `font-size` …).
    public var strings: [String: String] {
        var texts = OptionTexts()
        texts.text("label", label); texts.text("badge", badge)
        texts.color("fill", fill); texts.color("label-color", labelColor); texts.color("badge-color", badgeColor)
        texts.number("font-size", fontSize); texts.number("height", height)
        texts.text("pointer", pointer?.rawValue)
        texts.color("border", border); texts.number("border-width", borderWidth)
        texts.flag("shadow", shadow); texts.text("font", font)
        return texts.values
    }
}

/// Options of `callout` (and of `seed-callout`, which takes the same ones
/// with the seed's text, picture box and red glow as defaults): a bubble
/// with a title, a subtitle and a picture. Sizes are in points.
public struct CalloutOptions: PresetOptions, Hashable, Sendable {
    /// "callout" (the default) or "seed-callout".
    public var presetName = "callout"
    /// The first line, 14 pt.
    public var title: String?
    /// The second line, 12 pt; empty for none.
    public var subtitle: String?
    /// A PNG file shown at the left (70 × 50 points, scaled to fill); a
    /// relative path is taken from the current directory, as on the command line.
    public var picture: String?
    /// The bubble's colour (default rgba(77, 77, 77, 0.8)).
    public var fill: Color?
    /// The title's colour (default white).
    public var titleColor: Color?
    /// The subtitle's colour (default #AAAAAA).
    public var subtitleColor: Color?
    /// The shadow around the bubble; `.off` for none (default #00000040).
    public var shadowColor: ColorChoice?
    /// The shadow's blur radius in points, 0...32 (default 2).
    public var shadowRadius: Double?
    /// The shadow's horizontal offset in points, -32...32 (default 0).
    public var shadowX: Double?
    /// The shadow's vertical offset in points, -32...32 (default 1).
    public var shadowY: Double?
    /// A fixed width in points, 80...600; by default the bubble fits its text.
    public var width: Double?
    /// The widest the bubble grows before text is cut with an ellipsis, 100...600 (default 320).
    public var maxWidth: Double?
    /// Font families in fallback order; default Pinmint's fonts.
    public var font: String?

    /// Options with every field at the preset's default.
    public init() {}
    /// Options with a title and, when given, a subtitle.
    public init(title: String, subtitle: String? = nil) { self.title = title; self.subtitle = subtitle }

    /// The set fields under the preset's option names (`title-color`, `max-width` …).
    public var strings: [String: String] {
        var texts = OptionTexts()
        texts.text("title", title); texts.text("subtitle", subtitle); texts.text("picture", picture)
        texts.color("fill", fill); texts.color("title-color", titleColor); texts.color("subtitle-color", subtitleColor)
        texts.color("shadow-color", shadowColor); texts.number("shadow-radius", shadowRadius)
        texts.number("shadow-x", shadowX); texts.number("shadow-y", shadowY)
        texts.number("width", width); texts.number("max-width", maxWidth); texts.text("font", font)
        return texts.values
    }
}

/// Options of `avatar`: a round picture or initials in a white ring with
/// the name on top; its "selected" variant shows a larger avatar with name
/// and phone.
public struct AvatarOptions: PresetOptions, Hashable, Sendable {
    /// Always "avatar".
    public var presetName: String { "avatar" }
    /// The person's name (label, and initials without a picture), e.g. 张三.
    public var name: String?
    /// Shown under the name when selected; empty for none.
    public var phone: String?
    /// A PNG file clipped to the circle (initials on a disc when none); a
    /// relative path is taken from the current directory.
    public var picture: String?
    /// The initials disc's colour (default #F39C12).
    public var color: Color?
    /// The ring and pointer colour (default white).
    public var ring: Color?
    /// The ring colour of the selected variant (default #2D8CF0).
    public var accent: Color?
    /// The label's background (default white).
    public var labelFill: Color?
    /// The label's text colour; `.automatic` by default.
    public var labelColor: ColorChoice?
    /// Font families in fallback order; default Pinmint's fonts.
    public var font: String?

    /// Options with every field at the preset's default.
    public init() {}
    /// Options for a person called `name`.
    public init(name: String, phone: String? = nil) { self.name = name; self.phone = phone }

    /// The set fields under the preset's option names (`label-fill`, `label-color` …).
    public var strings: [String: String] {
        var texts = OptionTexts()
        texts.text("name", name); texts.text("phone", phone); texts.text("picture", picture)
        texts.color("color", color); texts.color("ring", ring); texts.color("accent", accent)
        texts.color("label-fill", labelFill); texts.color("label-color", labelColor); texts.text("font", font)
        return texts.values
    }
}

/// Options of `pin`: a map pin with a label, an icon, a picture or a dot in its head.
public struct PinOptions: PresetOptions, Hashable, Sendable {
    /// Always "pin".
    public var presetName: String { "pin" }
    /// A number or short text in the head (e.g. "1").
    public var label: String?
    /// SVG path data for an icon in the head, in a 24 × 24 box.
    public var icon: String?
    /// An SVG file drawn in the head; a relative path is taken from the current directory.
    public var iconFile: String?
    /// A PNG file framed in the head (clipped to a circle).
    public var picture: String?
    /// The pin's colour (default #E74C3C).
    public var fill: Color?
    /// The label's or icon's colour; `.automatic` by default.
    public var color: ColorChoice?
    /// The outline colour; `.off` for none (default white).
    public var border: ColorChoice?
    /// The dot drawn in an empty head; `.off` for none (default white).
    public var dot: ColorChoice?
    /// Font families in fallback order; default Pinmint's fonts.
    public var font: String?

    /// Options with every field at the preset's default.
    public init() {}
    /// Options with a label in the head.
    public init(label: String) { self.label = label }

    /// The set fields under the preset's option names (`icon-file` …).
    public var strings: [String: String] {
        var texts = OptionTexts()
        texts.text("label", label); texts.text("icon", icon); texts.text("icon-file", iconFile)
        texts.text("picture", picture); texts.color("fill", fill); texts.color("color", color)
        texts.color("border", border); texts.color("dot", dot); texts.text("font", font)
        return texts.values
    }
}
