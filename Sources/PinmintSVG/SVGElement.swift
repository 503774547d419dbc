import Foundation
import FoundationXML

/// One XML element of an SVG file: the raw tree that `SVGDocument` reads
/// before resolving it into something drawable.
final class SVGElement {
    /// The element name without an `svg:` prefix.
    let name: String
    let attributes: [String: String]
    /// The line of the start tag (1-based), or 0 when unknown.
    let line: Int
    var children: [SVGElement] = []

    init(name: String, attributes: [String: String], line: Int) {
        self.name = name.hasPrefix("svg:") ? String(name.dropFirst(4)) : name
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

/// Limits that keep a hostile or broken file from exhausting memory or stack.
enum SVGLimits {
    /// The largest file read: 16 MiB.
    static let maximumFileSize = 16 << 20
    /// The most elements in one document.
    static let maximumElementCount = 100_000
    /// The deepest nesting of elements.
    static let maximumDepth = 256
    /// The largest `feDropShadow` blur (stdDeviation) and offset, user units.
    static let maximumShadowLength = 10_000.0
}

/// A problem found before the file name is attached.
struct SVGProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Reads XML into a tree of `SVGElement`s with Foundation's `XMLParser`,
/// enforcing the element-count and depth limits as it goes.
final class SVGTreeReader: NSObject, XMLParserDelegate {
    private var stack: [SVGElement] = []
    private(set) var root: SVGElement?
    private var elementCount = 0
    private(set) var limitProblem: String?

    static func read(_ data: [UInt8]) -> Result<SVGElement, SVGProblem> {
        let parser = XMLParser(data: Data(data))
        let reader = SVGTreeReader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        if let problem = reader.limitProblem { return .failure(SVGProblem(problem)) }
        if !succeeded || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? -1
            let place = "line \(parser.lineNumber), column \(parser.columnNumber)"
            // libxml2's XML_ERR_DOCUMENT_EMPTY: the text does not start with a tag.
            if code == 4 { return .failure(SVGProblem("\(place): not XML: there is no <svg> element (the text does not start with '<')")) }
            return .failure(SVGProblem("\(place): malformed XML: " + reader.explain(code)))
        }
        guard let root = reader.root else { return .failure(SVGProblem("the document has no elements")) }
        return .success(root)
    }

    /// What libxml2's error `code` means here. XMLParser on Linux passes
    /// libxml2's numbers through with no message, and its `ErrorCode` cases
    /// are numbered one lower than those (its `prematureDocumentEndError` is
    /// libxml2's 4, "start tag expected"), so the numbers are matched here.
    /// Code 5 stands for several problems at the end of the text; the
    /// elements read so far tell which.
    private func explain(_ code: Int) -> String {
        switch code {
        case 3: return "content before the root element"
        case 5:
            if let open = stack.last { return "the document ends before <\(open.name)> is closed" }
            if root != nil { return "content after the end of the root element" }
            return "no complete root element (expected <svg ...>)"
        case 9: return "an invalid character (the file is not valid UTF-8, or holds a control character)"
        case 26, 27: return "an entity that is not declared"
        case 29: return "an external entity (external entities are not read)"
        case 38: return "a '<' in an attribute value"
        case 39, 40, 43, 44: return "a malformed attribute (its value is not in quotes, or not closed)"
        case 41: return "an attribute without a value"
        case 42: return "an attribute given twice on one element"
        case 45: return "a comment that is not closed"
        case 68, 72, 73: return "a malformed tag"
        case 76: return "an end tag does not match its start tag"
        case 77: return "a tag that is not finished"
        case 85: return "elements are not well balanced"
        case 89: return "entities that refer to each other in a loop or expand too far (not expanded)"
        // libxml2's XML_NS_ERR_UNDEFINED_NAMESPACE.
        case 201: return "a namespace prefix is used without its xmlns declaration"
        default: return "XML error \(code) (libxml2's error number)"
        }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        let element = SVGElement(name: elementName, attributes: attributes, line: parser.lineNumber)
        elementCount += 1
        if elementCount > SVGLimits.maximumElementCount {
            limitProblem = "\(element.location()): more than \(SVGLimits.maximumElementCount) elements"
            parser.abortParsing()
            return
        }
        if stack.count >= SVGLimits.maximumDepth {
            limitProblem = "\(element.location()): elements nested more than \(SVGLimits.maximumDepth) deep"
            parser.abortParsing()
            return
        }
        if let parent = stack.last { parent.children.append(element) } else if root == nil { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName: String?) {
        if !stack.isEmpty { stack.removeLast() }
    }
}
