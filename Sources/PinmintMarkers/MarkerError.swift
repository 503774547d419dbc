import PinmintGeometry
/// A marker description, option or resource that cannot be used. Prints as
/// one line naming the input (file, preset or option), the place inside it
/// and the problem, e.g. `marker.json: body.children[1].fill: unknown colour 'blu'`.
public struct MarkerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, preset or option the problem is in.
    public let input: String
    /// Where inside the input (a JSON path such as `body.children[0].width`), or "".
    public let path: String
    /// What is wrong, in words (`unknown colour 'blu'`).
    public let problem: String

    /// An error about `input`, at `path` inside it ("" for the input as a whole).
    public init(input: String, path: String = "", problem: String) {
        self.input = input
        self.path = path
        self.problem = problem
    }

    /// `input: path: problem` (or `input: problem` without a path), folded
    /// onto one line so that an error is always one line of output.
    public var description: String {
        MessageText.oneLine(path.isEmpty ? "\(input): \(problem)" : "\(input): \(path): \(problem)")
    }
}

/// Limits on what a description may ask for, checked before any work is
/// done, so that a hostile or mistaken input fails fast instead of
/// exhausting memory or time.
public enum MarkerLimits {
    /// Bytes read from a description file (1 MiB).
    public static let maximumDescriptionBytes = 1 << 20
    /// Nesting of JSON arrays and objects.
    public static let maximumJSONDepth = 64
    /// Nesting of parts (containers inside containers).
    public static let maximumPartDepth = 16
    /// Parts in one marker, counted over the whole tree.
    public static let maximumPartCount = 256
    /// Characters (Unicode scalars) in one text part, after options are filled in.
    public static let maximumTextLength = 500
    /// Any length (width, height, padding, font size …) in points.
    public static let maximumLength = 2048.0
    /// Pixel ratios a marker may be rendered at.
    public static let scaleRange = 0.25...8.0
    /// The widest or tallest picture (PNG file) a part may draw, in pixels:
    /// a photo or an avatar, shrunk to a marker's size, so 4096 is room to
    /// spare; a rendered marker may be larger (`Canvas.maximumSide`, 16384).
    /// Decoding is refused from the header before anything is allocated.
    public static let maximumPictureSide = 4096
    /// The largest picture file read: 64 MiB, room for any well-compressed
    /// PNG within `maximumPictureSide`; pictures must be regular files.
    public static let maximumPictureBytes = 64 << 20
    /// Variants (e.g. unselected and selected) in one style.
    public static let maximumVariantCount = 16
    /// Options one style may declare.
    public static let maximumOptionCount = 64

    // The ranges of the format's numbers, one place for the decoder and for
    // `MarkerDescription.validate()` (descriptions built in Swift).

    /// Widths, heights, padding, gaps, radii, dash lengths: points.
    public static let lengthRange = 0.0...maximumLength
    /// A stroke's width, points.
    public static let strokeWidthRange = 0.0...256
    /// A shadow's blur radius, points.
    public static let shadowRadiusRange = 0.0...256
    /// Each coordinate of a shadow's offset and a radial gradient's centre.
    public static let offsetRange = -1e4...1e4
    /// A text's font size, points.
    public static let fontSizeRange = 1.0...512
    /// A numeric font weight.
    public static let fontWeightRange = 100.0...900
    /// A text's lines at most.
    public static let maxLinesRange = 1...100
    /// A text's letter spacing, points.
    public static let letterSpacingRange = -100.0...100
    /// A text's line height, points.
    public static let lineHeightRange = 1.0...maximumLength
    /// A text halo's width, points.
    public static let haloWidthRange = 0.0...64
    /// OpenType feature settings in one text part.
    public static let maximumFeatureCount = 32

    /// Whether `tag` has the shape of a BCP 47 language tag (RFC 5646): a
    /// primary subtag of 2–8 letters, then subtags of 1–8 letters or digits
    /// joined by `-`; at most 35 characters. Not checked against the registry:
    /// a tag HarfBuzz does not know falls back to the script's default forms.
    public static func isLanguageTag(_ tag: String) -> Bool {
        guard tag.utf8.count <= 35 else { return false }
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...8).contains(primary.count),
              primary.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return false }
        return subtags.dropFirst().allSatisfy { subtag in
            (1...8).contains(subtag.count) && subtag.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        }
    }
    /// A linear gradient's angle, degrees.
    public static let gradientAngleRange = -3600.0...3600
    /// A radial gradient's radius, as a fraction of the box.
    public static let gradientRadiusRange = 0.0...100
    /// Dash lengths in one stroke's pattern.
    public static let maximumDashCount = 32
    /// Colour stops in one gradient.
    public static let maximumStopCount = 64
}
