import Foundation
import Testing

/// The Swift snippets of Pinmint's README.md and docs/*.md are compiled
/// here, so that they cannot rot: each block's lines (indentation aside,
/// blank lines skipped) must appear in order in one Swift file of this
/// package, and a block that imports modules must import exactly what that
/// file imports (so the snippet compiles on its own). A block without
/// imports continues the one before it.
struct SnippetTests {
    /// A fenced Swift block of a Markdown file.
    struct Snippet {
        let file: String
        let line: Int
        let imports: Set<String>
        let body: [String]
    }

    /// A Swift file of this package: its imports and its other lines.
    struct Source {
        let path: String
        let imports: Set<String>
        let body: [String]
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Pinmint's folder: `$PINMINT_ROOT` (set by `make test-consumer`), else the folder holding Examples/.
    static var pinmintRoot: URL {
        if let root = ProcessInfo.processInfo.environment["PINMINT_ROOT"], !root.isEmpty { return URL(fileURLWithPath: root) }
        return examples.deletingLastPathComponent()
    }

    static func isImport(_ line: String) -> Bool { line.hasPrefix("import ") }

    static func snippets(in file: URL, named name: String) throws -> [Snippet] {
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        var snippets: [Snippet] = []
        var start: Int? = nil, block: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if start == nil {
                if trimmed == "```swift" { start = index + 1; block = [] }
            } else if trimmed == "```" {
                let code = block.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                snippets.append(Snippet(file: name, line: start!, imports: Set(code.filter(isImport)),
                                        body: code.filter { !isImport($0) }))
                start = nil
            } else {
                block.append(line)
            }
        }
        return snippets
    }

    static func sources() throws -> [Source] {
        var sources: [Source] = []
        for folder in ["Sources", "Tests"] {
            let root = examples.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = enumerator.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                let code = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                sources.append(Source(path: "\(folder)/\(relative)", imports: Set(code.filter(isImport)),
                                      body: code.filter { !isImport($0) }))
            }
        }
        return sources
    }

    static func contains(_ body: [String], run: [String]) -> Bool {
        guard !run.isEmpty, run.count <= body.count else { return run.isEmpty }
        return (0...(body.count - run.count)).contains { start in Array(body[start..<start + run.count]) == run }
    }

    @Test func everySwiftSnippetOfTheDocsIsCompiledHere() throws {
        let root = Self.pinmintRoot
        var documents = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [] where name.hasSuffix(".md") {
            documents.append("docs/\(name)")
        }
        var snippets: [Snippet] = []
        for document in documents.sorted() {
            snippets += try Self.snippets(in: root.appendingPathComponent(document), named: document)
        }
        #expect(snippets.count >= 5, "found \(snippets.count) Swift snippets under \(root.path)")
        let sources = try Self.sources()
        for snippet in snippets {
            let homes = sources.filter { Self.contains($0.body, run: snippet.body) }
            let location = "\(snippet.file):\(snippet.line)"
            if homes.isEmpty {
                Issue.record("\(location): this Swift snippet is in no file of Examples/ (first line: \(snippet.body.first ?? ""))")
            } else if !snippet.imports.isEmpty, !homes.contains(where: { $0.imports == snippet.imports }) {
                func modules(_ imports: Set<String>) -> String {
                    imports.map { String($0.dropFirst("import ".count)) }.sorted().joined(separator: ", ")
                }
                let found = homes.map { "\($0.path) imports \(modules($0.imports))" }.joined(separator: "; ")
                Issue.record("\(location): the snippet imports \(modules(snippet.imports)); \(found)")
            }
        }
    }
}
