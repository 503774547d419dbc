import PinmintGeometry

/// One XML element of an SVG file: the raw tree that `SVGDocument` reads
/// before resolving it into something drawable.
final class SVGElement {
    /// The element name: the local name for an element in the SVG namespace.
    let name: String
    let attributes: [String: String]
    /// The line of the start tag (1-based), or 0 when unknown.
    let line: Int
    var children: [SVGElement] = []

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    subscript(attribute: String) -> String? { attributes[attribute] }

    /// `line 3: <path d>` or `<path>`: how error messages name the element.
    func location(_ attribute: String? = nil) -> String {
        let tag = "<\(name)\(attribute.map { " " + $0 } ?? "")>"
        return line > 0 ? "line \(line): \(tag)" : tag
    }
}

/// Limits that keep a hostile or broken file from exhausting memory or
/// stack; those of the XML itself (elements, depth, attributes, names,
/// entities) are `XMLLimits`.
enum SVGLimits {
    /// The largest file read: 16 MiB.
    static let maximumFileSize = 16 << 20
    /// The longest gradient `href` chain: tools write one or two links.
    static let maximumGradientChain = 64
    /// The largest `feDropShadow` blur (stdDeviation) and offset, user units.
    static let maximumShadowLength = 10_000.0
}

/// A problem found before the file name is attached.
package struct SVGProblem: Error, CustomStringConvertible {
    package let message: String
    init(_ message: String) { self.message = message }
    package var description: String { MessageText.oneLine(message) }
}

/// Reads XML into a tree of `SVGElement`s with Pinmint's own `XMLReader`
/// (see there for why not Foundation's `XMLParser`), resolving namespace
/// prefixes on the way: an element in the SVG namespace gets its local
/// name (`<svg:path>` is `path`), an attribute in the XLink namespace is
/// `xlink:NAME` whatever its prefix, other prefixed names stay as written
/// (`inkscape:label`), and a prefix without its `xmlns:` declaration is an
/// error (Namespaces in XML 1.0, §5).
struct SVGTreeReader: XMLReader.Handler {
    static let svgNamespace = "http://www.w3.org/2000/svg"
    static let xlinkNamespace = "http://www.w3.org/1999/xlink"
    static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"

    private let text: XMLText
    private var stack: [SVGElement] = []
    /// The prefixes declared by each open element that declares any, with its depth.
    private var scopes: [(depth: Int, prefixes: [String: String])] = []
    private(set) var root: SVGElement?

    private init(text: XMLText) { self.text = text }

    static func read(_ data: [UInt8]) -> Result<SVGElement, SVGProblem> {
        let text: XMLText
        do { text = try XMLText(data) } catch {
            let place = XMLTextPlace(data: data, offset: error.offset)
            return .failure(SVGProblem("line \(place.line), column \(place.column): \(error.message)"))
        }
        var reader = XMLReader(text)
        var tree = SVGTreeReader(text: text)
        do { try reader.read(into: &tree) } catch {
            let place = text.place(of: error.offset)
            return .failure(SVGProblem("line \(place.line), column \(place.column): \(error.message)"))
        }
        guard let root = tree.root else { return .failure(SVGProblem("the document has no elements")) }
        return .success(root)
    }

    mutating func startElement(_ name: String, attributes: [XMLReader.Attribute], offset: Int) throws(XMLReader.Refusal) {
        var declared: [String: String] = [:]
        for attribute in attributes where attribute.name.utf8.first == UInt8(ascii: "x") {
            if attribute.name.hasPrefix("xmlns:") {
                let prefix = String(attribute.name.dropFirst(6))
                guard !attribute.value.isEmpty else {
                    throw XMLReader.Refusal("malformed XML: <\(name)>: xmlns:\(prefix) is empty (a prefix cannot be undeclared)")
                }
                declared[prefix] = attribute.value
            }
        }
        if !declared.isEmpty { scopes.append((stack.count, declared)) }
        let elementName = try resolve(name, on: name)
        var resolved: [String: String] = Dictionary(minimumCapacity: attributes.count)
        for attribute in attributes {
            let isDeclaration = attribute.name.utf8.first == UInt8(ascii: "x")
                && (attribute.name == "xmlns" || attribute.name.hasPrefix("xmlns:"))
            let key = isDeclaration ? attribute.name : try resolve(attribute.name, on: name)
            guard resolved.updateValue(attribute.value, forKey: key) == nil else {
                throw XMLReader.Refusal("malformed XML: attribute '\(key)' is given twice on <\(name)>")
            }
        }
        let element = SVGElement(name: elementName, attributes: resolved, line: text.line(of: offset))
        if let parent = stack.last { parent.children.append(element) } else if root == nil { root = element }
        stack.append(element)
    }

    mutating func endElement() {
        stack.removeLast()
        if let scope = scopes.last, scope.depth == stack.count { scopes.removeLast() }
    }

    /// The name Pinmint uses for a qualified name (see the type's comment).
    private func resolve(_ qualifiedName: String, on element: String) throws(XMLReader.Refusal) -> String {
        guard qualifiedName.utf8.contains(UInt8(ascii: ":")), let colon = qualifiedName.firstIndex(of: ":") else {
            return qualifiedName
        }
        let prefix = String(qualifiedName[..<colon])
        let localName = qualifiedName[qualifiedName.index(after: colon)...]
        guard !prefix.isEmpty, !localName.isEmpty, !localName.contains(":") else {
            throw XMLReader.Refusal("malformed XML: '\(qualifiedName)' on <\(element)> is not a valid qualified name")
        }
        let namespace = prefix == "xml" ? SVGTreeReader.xmlNamespace
            : scopes.reversed().lazy.compactMap { $0.prefixes[prefix] }.first
        guard let namespace else {
            throw XMLReader.Refusal("malformed XML: the namespace prefix '\(prefix)' of '\(qualifiedName)' is not declared "
                                    + "(no xmlns:\(prefix) on this element or one around it)")
        }
        switch namespace {
        case SVGTreeReader.svgNamespace: return String(localName)
        case SVGTreeReader.xlinkNamespace: return "xlink:" + localName
        case SVGTreeReader.xmlNamespace: return "xml:" + localName
        default: return qualifiedName
        }
    }
}

/// The line and column of a byte offset in a file that could not be decoded.
private struct XMLTextPlace {
    let line: Int, column: Int

    init(data: [UInt8], offset: Int) {
        var line = 1, column = 1
        for byte in data[0..<min(max(offset, 0), data.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        self.line = line
        self.column = column
    }
}
