import PinmintGeometry
/// Why an SVG document could not be read or drawn.
///
/// The description is one line, `FILE: problem`, where the problem names
/// the element, its line when the XML parser knows it, and the attribute:
/// `icon.svg: line 3: <path d>: expected a number at offset 7`.
public struct SVGError: Error, CustomStringConvertible, Equatable {
    /// The file name given to the document, or nil for data without one.
    public let file: String?
    /// What went wrong, without the file name.
    public let problem: String

    /// An error about `file` (nil for data without a name); `problem` should
    /// not repeat the file name.
    public init(file: String?, problem: String) {
        self.file = file
        self.problem = problem
    }

    /// `FILE: PROBLEM` (or the problem alone without a file), on one line:
    /// line breaks and control characters quoted from the input are escaped.
    public var description: String { MessageText.oneLine(file.map { "\($0): \(problem)" } ?? problem) }
}

/// Something in a document that was skipped because Pinmint does not draw
/// it: `unsupported element <text>`, `unsupported attribute 'marker-end' on
/// <path>`. A document lists each warning once.
public struct SVGWarning: CustomStringConvertible, Hashable, Sendable {
    /// The warning as one line of text.
    public let message: String

    /// A warning with the given text (one line, e.g. "unsupported element <text>").
    public init(_ message: String) { self.message = message }

    /// The message as given.
    public var description: String { message }
}
