import PinmintGeometry
import PinmintRaster
import PinmintText

/// One piece of a marker: a container (with an optional background shape
/// and children placed in a row, a stack or on top of each other), a text,
/// a picture, an icon or a spacer. Lengths are in points; the renderer
/// multiplies them by the pixel ratio.
public struct Part: Sendable {
    /// Indirect: each payload lives in one shared heap box, so copying a
    /// part (layout nodes keep theirs, boxes hand out their children) is one
    /// retain instead of a field-by-field copy of a whole box or text part
    /// with every string and array in it retained (a price tag copied parts
    /// about 37 times per render: 9K instructions of copies and releases).
    public indirect enum Kind: Sendable {
        /// A container with an optional background and children.
        case box(Box)
        /// A run of text, laid out with the installed fonts.
        case text(TextPart)
        /// A PNG picture or a placeholder colour in a frame.
        case picture(PicturePart)
        /// An SVG file or a path filled with one colour.
        case icon(IconPart)
        /// Empty room: draws nothing; takes its `width` and `height` (0 when
        /// unset) in a row or stack.
        case spacer
    }

    /// What the part is, with the settings of that kind.
    public var kind: Kind
    /// A name for the part, shown in error messages; optional.
    public var name: String?
    /// Fixed outer size in points; nil sizes the part to its content.
    public var width: Double?, height: Double?
    /// Bounds on the automatic size, points.
    public var minWidth: Double?, maxWidth: Double?, minHeight: Double?, maxHeight: Double?
    /// 0...1, multiplies everything the part draws (default 1).
    public var opacity: Double = 1
    /// Marks the part whose frame is the marker's content box (where text
    /// sits). Without a mark, the first text part's frame is used.
    public var isContent = false
    /// Whether the part's frame counts as a hit box even when nothing is
    /// drawn there (default: parts that draw count, others do not).
    public var hit: Bool?

    /// A part of `kind` with every frame setting at its default: sized to
    /// its content, opacity 1, no name.
    public init(_ kind: Kind) { self.kind = kind }
}

/// How a container places its children inside its padding.
public enum BoxLayout: String, Sendable, CaseIterable {
    /// Left to right, `gap` apart.
    case row
    /// Top to bottom, `gap` apart.
    case stack
    /// Each child over the previous one, all aligned in the same box.
    case overlay
}

/// Where children sit on an axis when there is room to spare.
public enum Alignment: String, Sendable, CaseIterable {
    /// Against the left (horizontal) or top (vertical) edge of the padding box.
    case start
    /// Centred; an odd pixel left over goes after the children.
    case center
    /// Against the right (horizontal) or bottom (vertical) edge.
    case end
}

/// Space inside a container's edge, points.
public struct Insets: Hashable, Sendable {
    /// Each side's inset in points; descriptions allow 0...`MarkerLimits.maximumLength`.
    public var top, right, bottom, left: Double
    /// Insets with each side given, points.
    public init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }
    /// The same inset, points, on all four sides.
    public init(_ all: Double) { self.init(top: all, right: all, bottom: all, left: all) }
    /// No inset on any side.
    public static let zero = Insets(0)
}

/// A container: an optional background shape with fill, stroke and shadow,
/// and children laid out inside it.
public struct Box: Sendable {
    /// How the children are placed (default `overlay`).
    public var layout: BoxLayout = .overlay
    /// The parts inside, in drawing order (later ones on top); at most
    /// `MarkerLimits.maximumPartCount` parts in the whole marker and
    /// `MarkerLimits.maximumPartDepth` levels deep.
    public var children: [Part] = []
    /// Space between children in a row or stack, points.
    public var gap: Double = 0
    /// Space between the box's body (the shape without its pointer) and
    /// the children, points (default none).
    public var padding: Insets = .zero
    /// Horizontal and vertical placement of the children (default centred).
    public var alignX: Alignment = .center, alignY: Alignment = .center
    /// The background; nil draws nothing but still lays out the children.
    public var shape: Shape?
    /// What paints the shape's inside; nil leaves it transparent.
    public var fill: FillSpec?
    /// A line along the shape's outline, drawn over the fill; nil: none.
    public var stroke: StrokeSpec?
    /// A blurred copy of the shape drawn under it; nil: none.
    public var shadow: Shadow?
    /// Clips the children to the shape (e.g. a picture to a circle).
    public var clipsChildren = false
    /// An overlay box with no shape, no padding and no children.
    public init() {}
}

/// Background shapes. The box's frame holds the whole shape; a pointer
/// (bubble arrow, teardrop point) takes its room from the frame's side, and
/// the rest is the body where the children go.
public enum Shape: Sendable, Hashable {
    /// The frame itself.
    case rect
    /// The frame with each corner rounded by its radius, points (scaled by
    /// the pixel ratio when drawn).
    case roundedRect(Path.CornerRadii)
    /// The largest circle centred in the frame (diameter: its shorter side).
    case circle
    /// The ellipse inscribed in the frame.
    case ellipse
    /// SVG path data in its own coordinate box, stretched to the frame.
    case path(Path, viewBox: Rect)
    /// A rounded rectangle with a triangular arrow on one side; the arrow's
    /// tip is the marker's anchor.
    case bubble(radius: Double, arrow: Arrow?)
    /// A round head running down to a point: the head is the frame's
    /// width wide, the point `point` below the head; the tip is the anchor.
    case teardrop(point: Double)

    /// A bubble's arrow.
    public struct Arrow: Hashable, Sendable {
        /// The side of the bubble the arrow points out of.
        public enum Side: String, Sendable, CaseIterable {
            /// Points down; the usual callout, anchored below the bubble.
            case bottom
            /// Points up.
            case top
            /// Points left.
            case left
            /// Points right.
            case right
        }
        /// Which side the arrow sticks out of (default `bottom`); that
        /// side of the frame gives `height` points to it.
        public var side: Side = .bottom
        /// Width of the arrow's base and its height (length), points.
        public var width: Double = 20, height: Double = 10
        /// Where along the side the tip sits: 0 at the side's start (left or
        /// top), 1 at its end; default 0.5 (centred). The base is kept clear
        /// of the rounded corners.
        public var position: Double = 0.5
        /// A bottom arrow 20 points wide and 10 high, centred.
        public init() {}
    }

    /// The room a pointer takes from each side of the frame, points.
    var pointerInsets: Insets {
        switch self {
        case .bubble(_, let arrow?):
            switch arrow.side {
            case .bottom: return Insets(top: 0, right: 0, bottom: arrow.height, left: 0)
            case .top: return Insets(top: arrow.height, right: 0, bottom: 0, left: 0)
            case .left: return Insets(top: 0, right: 0, bottom: 0, left: arrow.height)
            case .right: return Insets(top: 0, right: arrow.height, bottom: 0, left: 0)
            }
        case .teardrop(let point): return Insets(top: 0, right: 0, bottom: point, left: 0)
        default: return .zero
        }
    }

    var isRound: Bool {
        switch self {
        case .circle, .teardrop: return true
        default: return false
        }
    }
}

/// What fills a shape: a colour, a gradient laid across the part's frame,
/// or a picture.
public enum FillSpec: Sendable {
    /// One colour, straight alpha.
    case color(Color)
    /// Angle in degrees: 0 runs left to right, 90 top to bottom.
    case linear(angle: Double, stops: [GradientStop])
    /// Centre and radius as fractions of the frame (radius of its larger side).
    case radial(center: Point, radius: Double, stops: [GradientStop])
    /// A picture placed in the part's frame as `fit` says and clipped to
    /// the shape.
    case picture(PictureSource, fit: PictureFit)

    /// The colour text on this fill should contrast with.
    var representativeColor: Color? {
        switch self {
        case .color(let color): return color
        case .linear(_, let stops), .radial(_, _, let stops):
            guard !stops.isEmpty else { return nil }
            let n = Double(stops.count)
            return Color(red: stops.map(\.color.red).reduce(0, +) / n, green: stops.map(\.color.green).reduce(0, +) / n,
                         blue: stops.map(\.color.blue).reduce(0, +) / n, alpha: stops.map(\.color.alpha).reduce(0, +) / n)
        case .picture: return nil
        }
    }
}

/// A stroke along a shape's outline, centred on it.
public struct StrokeSpec: Sendable {
    /// The line's colour, straight alpha.
    public var color: Color
    /// Points (default 1).
    public var width: Double = 1
    /// Alternating dash and gap lengths in points, starting with a dash;
    /// empty (the default) draws a solid line. At most
    /// `MarkerLimits.maximumDashCount` lengths, each 0...`maximumLength`.
    public var dashes: [Double] = []
    /// How corners of the outline are joined (default `round`); a miter
    /// join can reach 4 half-widths out, which the marker's bounds allow for.
    public var join: LineJoin = .round
    /// A solid stroke of `color`, 1 point wide, with round joins.
    public init(color: Color) { self.color = color }
}

/// A text's font weight. Each family's installed face nearest to it is
/// used (CSS's matching rule); a weight of 600 or more drawn with a face
/// lighter than 600 is emboldened (synthetic bold, one 24th of the em;
/// colour emoji faces are drawn as they are).
public enum FontWeight: Sendable, Hashable {
    /// 400.
    case regular
    /// 700.
    case bold
    /// A CSS weight; descriptions allow 100...900 (`MarkerLimits.fontWeightRange`).
    case numeric(Int)
    var value: Int {
        switch self {
        case .regular: return 400
        case .bold: return 700
        case .numeric(let weight): return weight
        }
    }
}

/// Text in a marker, laid out with HarfBuzz shaping in the installed fonts.
/// Lengths are points; the renderer scales them by the pixel ratio.
public struct TextPart: Sendable {
    /// The characters to draw, after `${option}` placeholders are filled in;
    /// at most `MarkerLimits.maximumTextLength` Unicode scalars. Newlines
    /// start new lines (up to `maxLines`).
    public var text: String
    /// Em size in points (default 12).
    public var fontSize: Double = 12
    /// Default regular (400).
    public var weight: FontWeight = .regular
    /// Families in fallback order; default Noto Sans, then Noto Sans CJK SC.
    public var families: [String]?
    /// Nil picks black or white, whichever contrasts more with the fill behind.
    public var color: Color?
    /// How lines sit inside the text's frame (default `start`, which is
    /// the right edge for right-to-left text).
    public var alignment: TextAlignment = .start
    /// At most this many lines (default 1: one line, cut with an ellipsis
    /// when the room runs out); more lines wrap at spaces and CJK characters.
    public var maxLines: Int = 1
    /// Extra room after each glyph, points (negative tightens);
    /// `MarkerLimits.letterSpacingRange`, default 0.
    public var letterSpacing: Double = 0
    /// Baseline to baseline distance, points; nil uses the font's own line
    /// height. `MarkerLimits.lineHeightRange`.
    public var lineHeight: Double?
    /// An outline of another colour around the glyphs, for text over a
    /// picture; nil: none. Its width counts toward the marker's ink bounds.
    public var halo: TextHalo?
    /// The base direction (default `auto`: from the first strong character);
    /// `align` `start` and `end` follow it.
    public var direction: TextDirection = .auto
    /// A BCP 47 language tag (`sr`, `ja`, `zh-Hant`) for the fonts'
    /// language forms and line breaking; nil: each script's default forms.
    public var language: String?
    /// OpenType feature settings for the whole text (`tnum`, `-liga`, `ss01=1`).
    public var features: [TextFeature] = []
    /// `text` in the default style: 12 points, regular, one line, start-aligned.
    public init(text: String) { self.text = text }
}

/// Where a picture comes from: a PNG file, or nothing yet (a placeholder
/// colour fills its place, as the seed's black picture frame).
public enum PictureSource: Sendable, Hashable {
    /// A PNG file path; the decoder resolves relative paths against the
    /// description's folder. At most `MarkerLimits.maximumPictureSide`
    /// pixels a side and `maximumPictureBytes` bytes; a missing or larger
    /// file makes the render throw `MarkerError`.
    case file(String)
    /// A solid colour (straight alpha) in the picture's place.
    case placeholder(Color)
}

/// How a picture meets its frame.
public enum PictureFit: String, Sendable, CaseIterable {
    /// Scaled to cover the frame, the overflow cut (CSS `cover`).
    case fill
    /// Scaled to fit inside the frame, centred (CSS `contain`).
    case fit
    /// Stretched to the frame.
    case stretch
}

/// A picture in its own frame (an avatar, a photo): scaled to the frame as
/// `fit` says, optionally clipped round.
public struct PicturePart: Sendable {
    /// The PNG or the placeholder colour.
    public var source: PictureSource
    /// Default `fill` (cover the frame, cut the overflow).
    public var fit: PictureFit = .fill
    /// Clip to a circle (the frame's inscribed circle) or to a rounded rectangle.
    public var clipCircle = false
    /// Radius of the rounded-rectangle clip, points; 0 (the default) does
    /// not round; capped at half the frame's width and height. Ignored when
    /// `clipCircle` is set.
    public var cornerRadius: Double = 0
    /// A picture of `source` that fills its frame, unclipped.
    public init(source: PictureSource) { self.source = source }
}

/// An icon: an SVG file drawn with its own colours, or SVG path data
/// filled with one colour.
public struct IconPart: Sendable {
    /// Where the icon's drawing comes from.
    public enum Source: Sendable {
        /// An SVG file (the subset PinmintSVG reads), in its own colours;
        /// relative paths are resolved against the description's folder.
        /// Its size is the SVG's width and height in points (24 when absent).
        case file(String)
        /// SVG path data in `viewBox` coordinates (y down), stretched to
        /// the part's frame and filled with `color`.
        case path(Path, viewBox: Rect)
    }
    /// The SVG file or the path data.
    public var source: Source
    /// For path data; nil contrasts with the fill behind, as text does.
    public var color: Color?
    /// An icon of `source` with no colour set (path data then contrasts
    /// with the fill behind it).
    public init(source: Source) { self.source = source }
}

