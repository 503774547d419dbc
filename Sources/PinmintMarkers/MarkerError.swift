/// A marker description, option or resource that cannot be used. Prints as
/// one line naming the input (file, preset or option), the place inside it
/// and the problem, e.g. `marker.json: body.children[1].fill: unknown colour 'blu'`.
public struct MarkerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, preset or option the problem is in.
    public let input: String
    /// Where inside the input (a JSON path such as `body.children[0].width`), or "".
    public let path: String
    public let problem: String

    public init(input: String, path: String = "", problem: String) {
        self.input = input
        self.path = path
        self.problem = problem
    }

    public var description: String { path.isEmpty ? "\(input): \(problem)" : "\(input): \(path): \(problem)" }
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
    /// Variants (e.g. unselected and selected) in one style.
    public static let maximumVariantCount = 16
    /// Options one style may declare.
    public static let maximumOptionCount = 64
}
