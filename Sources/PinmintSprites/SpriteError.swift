import PinmintGeometry
/// Bad sprite or batch input: one line that names the input (a file, an
/// option), the line in it when there is one, and the problem.
public struct SpriteError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file or option at fault.
    public let input: String
    /// 1-based line in `input`, when the problem is on one line.
    public let line: Int?
    /// What is wrong, in words.
    public let problem: String

    /// An error about `input`, at 1-based `line` when the problem is on one.
    public init(input: String, line: Int? = nil, problem: String) {
        self.input = input
        self.line = line
        self.problem = problem
    }

    /// `input:line: problem`, or `input: problem`.
    public var description: String {
        MessageText.oneLine(line.map { "\(input):\($0): \(problem)" } ?? "\(input): \(problem)")
    }
}
