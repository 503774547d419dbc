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

    public init(file: String?, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { MessageText.oneLine(file.map { "\($0): \(problem)" } ?? problem) }
}

/// Something in a document that was skipped because Pinmint does not draw
/// it: `unsupported element <text>`, `unsupported attribute 'marker-end' on
/// <path>`. A document lists each warning once.
public struct SVGWarning: CustomStringConvertible, Hashable, Sendable {
    /// The warning as one line of text.
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
