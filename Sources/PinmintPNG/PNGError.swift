import PinmintGeometry
/// Why a PNG could not be read or written: one line, naming the file.
public struct PNGError: Error, CustomStringConvertible {
    /// The file, "-" for standard input or output, or "memory" for in-memory data.
    public let file: String
    /// What went wrong, e.g. "corrupt PNG: IDAT: CRC error".
    public let problem: String

    /// An error about `file`; `problem` should not repeat the file name.
    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    /// `FILE: PROBLEM` on one line, e.g. "icon.png: corrupt PNG: IDAT: CRC
    /// error"; line breaks and control characters in either are escaped.
    public var description: String { MessageText.oneLine("\(file): \(problem)") }
}
