/// A text with `{field}` placeholders filled from a data row, as
/// `--set label='{price}萬'` gives it. `{{` and `}}` write literal braces.
public struct FieldTemplate: Sendable, Hashable {
    enum Piece: Sendable, Hashable {
        case text(String)
        case field(String)
    }

    /// The template as written.
    public let source: String
    let pieces: [Piece]

    /// Parses `text`; `input` (`--set label`) names it in errors.
    /// - Throws: `SpriteError` for an unclosed `{`, a stray `}` or an empty `{}`.
    public init(_ text: String, input: String) throws(SpriteError) {
        source = text
        var pieces: [Piece] = []
        var literal = "", name = ""
        var inField = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending { pending = nil; return character }
            return characters.next()
        }
        while let character = next() {
            if inField {
                if character == "}" {
                    guard !name.isEmpty else { throw SpriteError(input: input, problem: "'\(text)': an empty {} (write {{}} for braces)") }
                    pieces.append(.field(name)); name = ""; inField = false
                } else if character == "{" {
                    throw SpriteError(input: input, problem: "'\(text)': '{' inside a placeholder")
                } else {
                    name.append(character)
                }
                continue
            }
            if character == "{" || character == "}" {
                let following = next()
                if following == character { literal.append(character); continue }
                pending = following
                guard character == "{" else {
                    throw SpriteError(input: input, problem: "'\(text)': a '}' without its '{' (write }} for a brace)")
                }
                if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
                inField = true
                continue
            }
            literal.append(character)
        }
        if inField { throw SpriteError(input: input, problem: "'\(text)': a '{' is never closed (write {{ for a brace)") }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    /// The field names the template uses, in order, each once.
    public var fieldNames: [String] {
        var names: [String] = []
        for case .field(let name) in pieces where !names.contains(name) { names.append(name) }
        return names
    }

    /// The text with `fields` filled in, or the first field the row lacks.
    public func fill(_ fields: [String: String]) -> Result<String, MissingField> {
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let literal): text += literal
            case .field(let name):
                guard let value = fields[name] else { return .failure(MissingField(name: name)) }
                text += value
            }
        }
        return .success(text)
    }

    /// A placeholder whose field a row does not have.
    public struct MissingField: Error, Sendable {
        public let name: String
    }
}
