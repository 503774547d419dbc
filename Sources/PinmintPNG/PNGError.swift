import PinmintGeometry
/// Why a PNG could not be read or written: one line, naming the file.
public struct PNGError: Error, CustomStringConvertible {
    /// The file, "-" for standard input or output, or "memory" for in-memory data.
    public let file: String
    /// What went wrong, e.g. "corrupt PNG: IDAT: CRC error".
    public let problem: String

    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { MessageText.oneLine("\(file): \(problem)") }
}
