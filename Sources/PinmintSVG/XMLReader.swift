/// Pinmint's own XML 1.0 reader for SVG: a small, strict, streaming
/// tokenizer that hands elements and their attributes to a handler.
///
/// Why not Foundation's `XMLParser`: on Linux it wraps libxml2 and turns
/// each callback's C strings into Swift strings without checking them, so
/// a few bytes of invalid UTF-8 in a comment, a name or an entity, or a
/// processing instruction without data (`<?pi?>`), crash the process
/// (SIGILL, SIGSEGV) in its callbacks, before any code of ours can refuse
/// them; and its errors are bare libxml2 numbers. Filtering the bytes in
/// front of it would mean knowing every input it mishandles. A reader of
/// our own is a few hundred lines whose every branch the fuzzer reaches
/// (`make fuzz`, harness `svg`), and whose errors say what is wrong where.
///
/// What it reads (XML 1.0, fifth edition; the productions are named as in
/// the recommendation): the XML declaration, comments, processing
/// instructions (skipped), a DOCTYPE whose internal subset may declare
/// internal general entities (`<!ENTITY ns "http://…">`, as Illustrator
/// writes them; other declarations are skipped, external ones are never
/// read), elements, attributes with their values normalised (§3.3.3),
/// character and entity references, CDATA sections and character data
/// (checked, then dropped: SVG drawing needs none of it here).
/// Namespaces are left to the handler: names arrive as written.
///
/// Limits (`XMLLimits`) bound every size, count and depth the input
/// controls, and entity expansion is charged against one budget per
/// document, so a billion laughs stops after a megabyte of work. Every
/// problem is an `XMLReader.Problem` with the byte offset it is at, which
/// `XMLText` turns into a line and column.
struct XMLReader {
    /// Receives the elements in document order.
    protocol Handler {
        /// An element starts; `offset` is that of its `<`. Throws a
        /// `Refusal` to stop reading, which is reported at the tag.
        mutating func startElement(_ name: String, attributes: [Attribute], offset: Int) throws(Refusal)
        /// The element last started ends.
        mutating func endElement()
    }

    struct Attribute {
        let name: String
        let value: String
    }

    /// A handler's reason to stop.
    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A problem at a byte offset of the text.
    struct Problem: Error {
        let offset: Int
        let message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var openElements: [(name: Range<Int>, offset: Int)] = []
    private var elementCount = 0
    /// Internal general entities by name: their replacement text, or nil for an external one.
    private var entities: [String: [UInt8]?] = [:]
    /// Bytes of replacement text expanded so far, against `XMLLimits.maximumEntityExpansion`.
    private var expandedBytes = 0
    private var sawRoot = false

    init(_ text: XMLText) { bytes = text.bytes }

    /// Reads the whole document, calling `handler` for each element.
    mutating func read<H: Handler>(into handler: inout H) throws(Problem) {
        if startsWith("<?xml") && isWhitespace(at: index + 5) { try xmlDeclaration() }
        try misc(beforeRoot: true)
        guard index < bytes.count else {
            throw Problem(offset: index, message: "malformed XML: no complete root element (expected <svg ...>)")
        }
        try element(into: &handler)
        try misc(beforeRoot: false)
    }

    // MARK: Prolog and epilogue

    /// Comments, processing instructions, whitespace and (before the root) a
    /// DOCTYPE, up to the root element or the end.
    private mutating func misc(beforeRoot: Bool) throws(Problem) {
        var sawMarkup = index > 0
        var sawDoctype = false
        while true {
            skipWhitespace()
            guard index < bytes.count else { return }
            if startsWith("<!--") {
                try comment()
            } else if startsWith("<?") {
                try processingInstruction()
            } else if startsWith("<!DOCTYPE") {
                guard beforeRoot else { throw Problem(offset: index, message: "malformed XML: a DOCTYPE after the root element") }
                guard !sawDoctype else { throw Problem(offset: index, message: "malformed XML: a second DOCTYPE") }
                try doctype()
                sawDoctype = true
            } else if beforeRoot && current == UInt8(ascii: "<") && isNameStart(at: index + 1) {
                return
            } else if !sawMarkup && beforeRoot && current != UInt8(ascii: "<") {
                throw Problem(offset: index, message: "not XML: there is no <svg> element (the text does not start with '<')")
            } else {
                throw Problem(offset: index, message: beforeRoot ? "malformed XML: content before the root element"
                              : "malformed XML: content after the end of the root element")
            }
            sawMarkup = true
        }
    }

    /// `<?xml version="1.0" encoding="…" standalone="…"?>`; the encoding
    /// was acted on by `XMLText`.
    private mutating func xmlDeclaration() throws(Problem) {
        let start = index
        index += 5
        var names: [String] = []
        while true {
            let hadWhitespace = skipWhitespace()
            if startsWith("?>") { index += 2; break }
            guard index < bytes.count else { throw Problem(offset: start, message: "malformed XML: the XML declaration is not closed (no '?>')") }
            guard hadWhitespace, let pseudoAttribute = try name() else {
                throw Problem(offset: index, message: "malformed XML: a malformed XML declaration")
            }
            let text = string(pseudoAttribute)
            guard ["version", "encoding", "standalone"].contains(text), !names.contains(text) else {
                throw Problem(offset: index - pseudoAttribute.count, message: "malformed XML: '\(text)' does not belong in the XML declaration")
            }
            names.append(text)
            skipWhitespace()
            guard current == UInt8(ascii: "=") else { throw Problem(offset: index, message: "malformed XML: '\(text)' in the XML declaration has no value") }
            index += 1
            skipWhitespace()
            let value = try literal(what: "the XML declaration's \(text)")
            if text == "version", !(value.count == 3 && value.starts(with: Array("1.".utf8)) && value.last! >= 0x30 && value.last! <= 0x39) {
                throw Problem(offset: index, message: "malformed XML: XML version '\(String(decoding: value, as: UTF8.self))' (1.0 is read)")
            }
        }
        guard names.first == "version" else { throw Problem(offset: start, message: "malformed XML: the XML declaration has no version") }
    }

    private mutating func comment() throws(Problem) {
        let start = index
        index += 4
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "-") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-") {
                guard index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: ">") else {
                    throw Problem(offset: index, message: "malformed XML: '--' inside a comment (XML allows it only in the closing '-->')")
                }
                index += 3
                return
            }
            index += 1
        }
        throw Problem(offset: start, message: "malformed XML: a comment that is not closed (no '-->')")
    }

    private mutating func processingInstruction() throws(Problem) {
        let start = index
        index += 2
        guard let target = try name() else {
            throw Problem(offset: start, message: "malformed XML: a processing instruction without a name ('<?' must be followed by one)")
        }
        if target.count == 3, string(target).lowercased() == "xml" {
            throw Problem(offset: start, message: "malformed XML: an XML declaration that is not at the very start of the file")
        }
        guard skipWhitespace() || startsWith("?>") || index == bytes.count else {
            throw Problem(offset: index, message: "malformed XML: a malformed processing instruction")
        }
        while index < bytes.count {
            if startsWith("?>") { index += 2; return }
            index += 1
        }
        throw Problem(offset: start, message: "malformed XML: a processing instruction that is not closed (no '?>')")
    }

    // MARK: DOCTYPE

    /// `<!DOCTYPE svg PUBLIC "…" "…" [ internal subset ]>`. Only general
    /// entity declarations are kept; nothing external is fetched.
    private mutating func doctype() throws(Problem) {
        let start = index
        index += 9
        guard skipWhitespace(), try name() != nil else {
            throw Problem(offset: start, message: "malformed XML: a DOCTYPE without the root element's name")
        }
        if skipWhitespace(), try externalIdentifier() != nil { skipWhitespace() }
        if current == UInt8(ascii: "[") {
            index += 1
            try internalSubset()
            skipWhitespace()
        }
        guard current == UInt8(ascii: ">") else {
            throw Problem(offset: index < bytes.count ? index : start, message: "malformed XML: a DOCTYPE that is not closed (no '>')")
        }
        index += 1
    }

    /// `SYSTEM "uri"` or `PUBLIC "id" "uri"`: true when one was read.
    private mutating func externalIdentifier() throws(Problem) -> Bool? {
        if startsWith("SYSTEM") {
            index += 6
            guard skipWhitespace() else { throw Problem(offset: index, message: "malformed XML: SYSTEM needs a quoted URI") }
            _ = try literal(what: "a SYSTEM identifier")
            return true
        }
        if startsWith("PUBLIC") {
            index += 6
            guard skipWhitespace() else { throw Problem(offset: index, message: "malformed XML: PUBLIC needs a quoted identifier") }
            _ = try literal(what: "a PUBLIC identifier")
            // In a DOCTYPE the system literal is required; in a NOTATION it may be missing.
            if skipWhitespace(), current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                _ = try literal(what: "a SYSTEM identifier")
            }
            return true
        }
        return nil
    }

    private mutating func internalSubset() throws(Problem) {
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw Problem(offset: index, message: "malformed XML: the DOCTYPE's internal subset is not closed (no ']')")
            }
            if current == UInt8(ascii: "]") { index += 1; return }
            if startsWith("<!ENTITY") {
                try entityDeclaration()
            } else if startsWith("<!ELEMENT") || startsWith("<!ATTLIST") || startsWith("<!NOTATION") {
                try skipDeclaration()
            } else if startsWith("<!--") {
                try comment()
            } else if startsWith("<?") {
                try processingInstruction()
            } else if current == UInt8(ascii: "%") {
                // A parameter-entity reference: parameter entities are not expanded.
                index += 1
                guard try name() != nil, current == UInt8(ascii: ";") else {
                    throw Problem(offset: index, message: "malformed XML: a malformed parameter-entity reference in the DOCTYPE")
                }
                index += 1
            } else {
                throw Problem(offset: index, message: "malformed XML: a malformed declaration in the DOCTYPE")
            }
        }
    }

    /// An element, attribute-list or notation declaration: skipped to its `>`, quoted text included.
    private mutating func skipDeclaration() throws(Problem) {
        let start = index
        index += 2
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { index += 1; return }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { _ = try literal(what: "a declaration's value") } else { index += 1 }
        }
        throw Problem(offset: start, message: "malformed XML: a declaration in the DOCTYPE that is not closed (no '>')")
    }

    /// `<!ENTITY name "value">`, `<!ENTITY name SYSTEM "uri">` or a parameter entity (skipped).
    private mutating func entityDeclaration() throws(Problem) {
        let start = index
        index += 8
        guard skipWhitespace() else { throw Problem(offset: index, message: "malformed XML: a malformed entity declaration") }
        var isParameter = false
        if current == UInt8(ascii: "%") { index += 1; isParameter = true; skipWhitespace() }
        guard let nameBytes = try name(), skipWhitespace() else {
            throw Problem(offset: index, message: "malformed XML: a malformed entity declaration")
        }
        let name = string(nameBytes)
        var replacement: [UInt8]?
        if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
            let valueStart = index
            let value = try literal(what: "entity '\(name)'")
            guard value.count <= XMLLimits.maximumEntityValueBytes else {
                throw Problem(offset: valueStart, message: "entity '\(name)' is \(value.count) bytes long; at most \(XMLLimits.maximumEntityValueBytes) are read")
            }
            replacement = try entityValue(value, offset: valueStart + 1, entity: name)
        } else {
            guard try externalIdentifier() != nil else {
                throw Problem(offset: index, message: "malformed XML: entity '\(name)' has neither a quoted value nor SYSTEM or PUBLIC")
            }
            if skipWhitespace(), startsWith("NDATA") {
                index += 5
                guard skipWhitespace(), try self.name() != nil else { throw Problem(offset: index, message: "malformed XML: NDATA needs a notation name") }
            }
        }
        skipWhitespace()
        guard current == UInt8(ascii: ">") else {
            throw Problem(offset: index < bytes.count ? index : start, message: "malformed XML: entity '\(name)' is not closed (no '>')")
        }
        index += 1
        guard !isParameter else { return }
        // The first declaration of a name binds it (§4.2).
        guard entities[name] == nil else { return }
        guard entities.count < XMLLimits.maximumEntityCount else {
            throw Problem(offset: start, message: "more than \(XMLLimits.maximumEntityCount) entities are declared")
        }
        entities[name] = .some(replacement)
    }

    /// An entity value's replacement text: character references replaced,
    /// entity references kept for when it is used (§4.5).
    private func entityValue(_ value: [UInt8], offset: Int, entity: String) throws(Problem) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(value.count)
        var position = 0
        while position < value.count {
            let byte = value[position]
            if byte == UInt8(ascii: "%") {
                throw Problem(offset: offset + position, message: "entity '\(entity)' refers to a parameter entity, which XML does not allow in the internal subset")
            }
            if byte == UInt8(ascii: "&") {
                guard let end = value[position...].firstIndex(of: UInt8(ascii: ";")) else {
                    throw Problem(offset: offset + position, message: "malformed XML: a '&' in entity '\(entity)' that starts no reference (write &amp;)")
                }
                let reference = Array(value[(position + 1)..<end])
                if reference.first == UInt8(ascii: "#") {
                    guard let scalar = XMLReader.characterReference(reference) else {
                        throw Problem(offset: offset + position, message: "malformed XML: a malformed character reference in entity '\(entity)'")
                    }
                    XMLReader.appendUTF8(scalar, to: &output)
                } else {
                    guard XMLReader.isName(reference) else {
                        throw Problem(offset: offset + position, message: "malformed XML: a '&' in entity '\(entity)' that starts no reference (write &amp;)")
                    }
                    output.append(contentsOf: value[position...end])
                }
                position = end + 1
                continue
            }
            output.append(byte)
            position += 1
        }
        return output
    }

    // MARK: Elements

    private mutating func element<H: Handler>(into handler: inout H) throws(Problem) {
        while true {
            // At a '<' that starts a tag.
            let tagStart = index
            index += 1
            guard let nameBytes = try name() else {
                throw Problem(offset: tagStart, message: "malformed XML: a malformed tag ('<' must be followed by a name)")
            }
            elementCount += 1
            guard elementCount <= XMLLimits.maximumElementCount else {
                throw Problem(offset: tagStart, message: "more than \(XMLLimits.maximumElementCount) elements")
            }
            let name = string(nameBytes)
            guard openElements.count < XMLLimits.maximumDepth else {
                throw Problem(offset: tagStart, message: "<\(name)>: elements nested more than \(XMLLimits.maximumDepth) deep")
            }
            let attributes = try self.attributes(of: name, tagStart: tagStart)
            let isEmpty = current == UInt8(ascii: "/")
            index += isEmpty ? 2 : 1
            do { try handler.startElement(name, attributes: attributes, offset: tagStart) } catch {
                throw Problem(offset: tagStart, message: error.message)
            }
            if isEmpty {
                handler.endElement()
            } else {
                openElements.append((nameBytes, tagStart))
            }
            // Content up to the next start tag, or to the end of the root.
            while !openElements.isEmpty {
                try characterData()
                guard index < bytes.count else {
                    let open = openElements.last!
                    throw Problem(offset: index, message: "malformed XML: the document ends before <\(string(open.name))> is closed")
                }
                // At a '<'.
                if startsWith("</") {
                    try endTag()
                    handler.endElement()
                } else if startsWith("<!--") {
                    try comment()
                } else if startsWith("<![CDATA[") {
                    try cdata()
                } else if startsWith("<?") {
                    try processingInstruction()
                } else if startsWith("<!") {
                    throw Problem(offset: index, message: "malformed XML: '<!' inside an element starts only a comment (<!--) or CDATA (<![CDATA[)")
                } else {
                    break
                }
            }
            if openElements.isEmpty { return }
        }
    }

    /// The attributes of a start tag, up to its `>` or `/>` (left unread).
    private mutating func attributes(of element: String, tagStart: Int) throws(Problem) -> [Attribute] {
        var attributes: [Attribute] = []
        while true {
            let hadWhitespace = skipWhitespace()
            guard index < bytes.count else {
                throw Problem(offset: tagStart, message: "malformed XML: the document ends inside the tag <\(element)>")
            }
            if current == UInt8(ascii: ">") { return attributes }
            if startsWith("/>") { return attributes }
            let nameStart = index
            guard let nameBytes = try name() else {
                throw Problem(offset: index, message: "malformed XML: a malformed tag <\(element)> (expected an attribute name, '>' or '/>')")
            }
            let name = string(nameBytes)
            guard hadWhitespace else {
                throw Problem(offset: nameStart, message: "malformed XML: attribute '\(name)' of <\(element)> must be separated from what comes before it by a space")
            }
            skipWhitespace()
            guard current == UInt8(ascii: "=") else {
                throw Problem(offset: nameStart, message: "malformed XML: attribute '\(name)' of <\(element)> has no value")
            }
            index += 1
            skipWhitespace()
            let value = try attributeValue(name, of: element)
            // Tags hold a handful of attributes: comparing with each is cheaper than hashing.
            guard !attributes.contains(where: { $0.name == name }) else {
                throw Problem(offset: nameStart, message: "malformed XML: attribute '\(name)' is given twice on <\(element)>")
            }
            guard attributes.count < XMLLimits.maximumAttributeCount else {
                throw Problem(offset: nameStart, message: "<\(element)> has more than \(XMLLimits.maximumAttributeCount) attributes")
            }
            attributes.append(Attribute(name: name, value: value))
        }
    }

    /// A quoted attribute value, references replaced and white space
    /// normalised to spaces (§3.3.3).
    private mutating func attributeValue(_ attribute: String, of element: String) throws(Problem) -> String {
        let start = index
        guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw Problem(offset: index, message: "malformed XML: the value of attribute '\(attribute)' of <\(element)> is not in quotes")
        }
        index += 1
        // Most values hold no reference and no tab or line end: their bytes are the value.
        let valueStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return string(valueStart..<(index - 1))
            }
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") || byte == 0x09 || byte == 0x0A { break }
            index += 1
            if index - valueStart > XMLLimits.maximumAttributeBytes { throw tooLong(attribute, of: element, at: start) }
        }
        var value = Array(bytes[valueStart..<index])
        while true {
            guard index < bytes.count else {
                throw Problem(offset: start, message: "malformed XML: the value of attribute '\(attribute)' of <\(element)> is not closed (no \(quote == 0x22 ? "\"" : "'"))")
            }
            let byte = bytes[index]
            if byte == quote { index += 1; break }
            switch byte {
            case UInt8(ascii: "<"):
                throw Problem(offset: index, message: "malformed XML: a '<' in the value of attribute '\(attribute)' of <\(element)> (write &lt;)")
            case UInt8(ascii: "&"):
                try reference(into: &value, inAttribute: attribute, of: element)
            case 0x09, 0x0A:
                value.append(0x20)
                index += 1
            default:
                value.append(byte)
                index += 1
            }
            if value.count > XMLLimits.maximumAttributeBytes { throw tooLong(attribute, of: element, at: start) }
        }
        return String(decoding: value, as: UTF8.self)
    }

    private func tooLong(_ attribute: String, of element: String, at offset: Int) -> Problem {
        Problem(offset: offset, message: "the value of attribute '\(attribute)' of <\(element)> is longer than "
                + "\(XMLLimits.maximumAttributeBytes) bytes (\(XMLLimits.maximumAttributeBytes >> 20) MiB)")
    }

    /// `</name>`, which must close the innermost open element.
    private mutating func endTag() throws(Problem) {
        let start = index
        index += 2
        let open = openElements.last!
        guard let name = try name() else {
            throw Problem(offset: start, message: "malformed XML: a malformed end tag ('</' must be followed by a name)")
        }
        guard bytes[name].elementsEqual(bytes[open.name]) else {
            throw Problem(offset: start, message: "malformed XML: an end tag does not match its start tag: </\(string(name))> "
                          + "where <\(string(open.name))> (line \(lineHint(open.offset))) is open")
        }
        skipWhitespace()
        guard current == UInt8(ascii: ">") else {
            throw Problem(offset: start, message: "malformed XML: the end tag </\(string(name))> is not closed with '>'")
        }
        index += 1
        openElements.removeLast()
    }

    private func lineHint(_ offset: Int) -> Int {
        var line = 1
        for byte in bytes[0..<offset] where byte == 0x0A { line += 1 }
        return line
    }

    private mutating func cdata() throws(Problem) {
        let start = index
        index += 9
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "]") && bytes[index + 1] == UInt8(ascii: "]") && bytes[index + 2] == UInt8(ascii: ">") {
                index += 3
                return
            }
            index += 1
        }
        throw Problem(offset: start, message: "malformed XML: a CDATA section that is not closed (no ']]>')")
    }

    /// Text between tags, up to the next `<` or the end: checked (references
    /// must resolve, `]]>` is not allowed) and dropped.
    private mutating func characterData() throws(Problem) {
        var discarded: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { return }
            if byte == UInt8(ascii: "&") {
                try reference(into: &discarded, inAttribute: nil, of: nil)
                discarded.removeAll(keepingCapacity: true)
                continue
            }
            if byte == UInt8(ascii: "]") && startsWith("]]>") {
                throw Problem(offset: index, message: "malformed XML: ']]>' in text outside a CDATA section")
            }
            index += 1
        }
    }

    // MARK: References

    /// A character or entity reference at the cursor (a `&`), its text
    /// appended to `output`. In an attribute, entity text is normalised as
    /// the value is; in content, an entity holding markup is refused.
    private mutating func reference(into output: inout [UInt8], inAttribute attribute: String?, of element: String?) throws(Problem) {
        let start = index
        var end = index + 1
        while end < bytes.count && end - start <= XMLLimits.maximumNameBytes + 2 && bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw Problem(offset: start, message: "malformed XML: a '&' that starts no reference (write &amp;, or end the reference with ';')")
        }
        let reference = Array(bytes[(start + 1)..<end])
        index = end + 1
        if reference.first == UInt8(ascii: "#") {
            guard let scalar = XMLReader.characterReference(reference) else {
                throw Problem(offset: start, message: "malformed XML: '&\(String(decoding: reference, as: UTF8.self));' is not a character XML allows")
            }
            XMLReader.appendUTF8(scalar, to: &output)
            return
        }
        guard XMLReader.isName(reference) else {
            throw Problem(offset: start, message: "malformed XML: a '&' that starts no reference (write &amp;)")
        }
        var active: [String] = []
        do {
            try expand(String(decoding: reference, as: UTF8.self), into: &output, attribute: attribute, active: &active)
        } catch {
            throw Problem(offset: start, message: error.message)
        }
    }

    /// The predefined entities (§4.6).
    private static let predefined: [String: UInt8] = ["lt": 0x3C, "gt": 0x3E, "amp": 0x26, "apos": 0x27, "quot": 0x22]

    /// Appends entity `name`'s text, its own references expanded in turn.
    private mutating func expand(_ name: String, into output: inout [UInt8], attribute: String?, active: inout [String]) throws(Refusal) {
        if let byte = XMLReader.predefined[name] { output.append(byte); return }
        guard let declared = entities[name] else {
            throw Refusal("malformed XML: entity '&\(name);' is not declared (only &lt; &gt; &amp; &apos; &quot; and the DOCTYPE's entities are)")
        }
        guard let text = declared else {
            throw Refusal("entity '&\(name);' is an external entity (external entities are not read)")
        }
        guard !active.contains(name) else {
            throw Refusal("entity '&\(name);' refers to itself (through \(active.map { "&\($0);" }.joined(separator: " → "))), a loop that is not expanded")
        }
        guard active.count < XMLLimits.maximumEntityNesting else {
            throw Refusal("entities nest more than \(XMLLimits.maximumEntityNesting) deep at '&\(name);'")
        }
        expandedBytes += text.count
        guard expandedBytes <= XMLLimits.maximumEntityExpansion else {
            throw Refusal("entities expand too far: more than \(XMLLimits.maximumEntityExpansion) bytes (not expanded)")
        }
        active.append(name)
        defer { active.removeLast() }
        var position = 0
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: "&") {
                // The text is read again (§4.4.5): a '&' there, kept from the
                // declaration or made by &#38;, must start a reference.
                guard let end = text[position...].firstIndex(of: UInt8(ascii: ";")) else {
                    throw Refusal("malformed XML: entity '&\(name);' holds a '&' that starts no reference")
                }
                let reference = Array(text[(position + 1)..<end])
                if reference.first == UInt8(ascii: "#") {
                    guard let scalar = XMLReader.characterReference(reference) else {
                        throw Refusal("malformed XML: entity '&\(name);' holds a malformed character reference")
                    }
                    XMLReader.appendUTF8(scalar, to: &output)
                } else {
                    guard XMLReader.isName(reference) else {
                        throw Refusal("malformed XML: entity '&\(name);' holds a '&' that starts no reference")
                    }
                    try expand(String(decoding: reference, as: UTF8.self), into: &output, attribute: attribute, active: &active)
                }
                position = end + 1
                continue
            }
            if byte == UInt8(ascii: "<") {
                throw Refusal(attribute.map { "malformed XML: a '<' in the value of attribute '\($0)', from entity '&\(name);'" }
                              ?? "entity '&\(name);' holds markup ('<'), which is not read")
            }
            output.append(attribute != nil && (byte == 0x09 || byte == 0x0A) ? 0x20 : byte)
            position += 1
        }
    }

    /// The scalar of `#123` or `#x7B`, when it is a character XML allows.
    private static func characterReference(_ reference: [UInt8]) -> UInt32? {
        var digits = reference.dropFirst()
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") { radix = 16; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value * radix + digit
        }
        // Char (§2.2).
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return value
        default: return nil
        }
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        output.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
    }

    // MARK: Names and literals

    /// A quoted literal's bytes (no references replaced), the cursor after its closing quote.
    private mutating func literal(what: String) throws(Problem) -> [UInt8] {
        guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw Problem(offset: index, message: "malformed XML: \(what) is not in quotes")
        }
        let start = index
        index += 1
        guard let end = bytes[index...].firstIndex(of: quote) else {
            throw Problem(offset: start, message: "malformed XML: \(what) is not closed (no closing quote)")
        }
        let value = Array(bytes[index..<end])
        index = end + 1
        return value
    }

    /// The name at the cursor, or nil (cursor unmoved) when none starts there.
    private mutating func name() throws(Problem) -> Range<Int>? {
        guard isNameStart(at: index) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard XMLReader.asciiNameCharacters[Int(byte)] else { break }
                index += 1
            } else {
                let (scalar, length) = XMLText.scalar(in: bytes, at: index)!
                guard XMLReader.isNameCharacter(scalar) else { break }
                index += length
            }
            if index - start > XMLLimits.maximumNameBytes {
                throw Problem(offset: start, message: "a name longer than \(XMLLimits.maximumNameBytes) bytes")
            }
        }
        return start..<index
    }

    /// The text of a range of the document.
    private func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private func isNameStart(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        if byte < 0x80 { return XMLReader.asciiNameStartCharacters[Int(byte)] }
        return XMLReader.isNameStartCharacter(XMLText.scalar(in: bytes, at: position)!.0)
    }

    private static func isName(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty, let first = XMLText.scalar(in: bytes, at: 0), isNameStartCharacter(first.0) else { return false }
        var position = first.1
        while position < bytes.count {
            guard let (scalar, length) = XMLText.scalar(in: bytes, at: position), isNameCharacter(scalar) else { return false }
            position += length
        }
        return true
    }

    private static let asciiNameStartCharacters: [Bool] = (0..<128).map { byte in
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x3A || byte == 0x5F
    }
    private static let asciiNameCharacters: [Bool] = (0..<128).map { byte in
        asciiNameStartCharacters[byte] || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
    }

    /// NameStartChar (§2.3).
    private static func isNameStartCharacter(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return asciiNameStartCharacters[Int(scalar)] }
        switch scalar {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F,
             0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF: return true
        default: return false
        }
    }

    /// NameChar (§2.3).
    private static func isNameCharacter(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return asciiNameCharacters[Int(scalar)] }
        return isNameStartCharacter(scalar) || scalar == 0xB7 || (scalar >= 0x300 && scalar <= 0x36F)
            || scalar == 0x203F || scalar == 0x2040
    }

    // MARK: Cursor

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func startsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let start = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
        return true
    }

    private func isWhitespace(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        let byte = bytes[position]
        return byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Skips white space (S, §2.3); true when there was some.
    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while isWhitespace(at: index) { index += 1 }
        return index > start
    }
}

/// The limits `XMLReader` enforces on what a document may hold.
enum XMLLimits {
    /// The most elements in one document.
    static let maximumElementCount = 100_000
    /// The deepest nesting of elements.
    static let maximumDepth = 256
    /// The most attributes on one element.
    static let maximumAttributeCount = 1_000
    /// The longest attribute value, after references are replaced: 4 MiB
    /// (a path of some 400,000 points).
    static let maximumAttributeBytes = 4 << 20
    /// The longest element, attribute or entity name.
    static let maximumNameBytes = 1_000
    /// The most entities one DOCTYPE declares.
    static let maximumEntityCount = 1_000
    /// The longest entity value.
    static let maximumEntityValueBytes = 64 << 10
    /// Replacement text expanded in one document, all references together.
    static let maximumEntityExpansion = 1 << 20
    /// Entities expanded inside one another.
    static let maximumEntityNesting = 16
}
