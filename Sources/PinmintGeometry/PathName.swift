/// File path pieces, found by their `/` separators: what NSString's path
/// methods give (`deletingLastPathComponent`, `lastPathComponent`,
/// `pathExtension`, `deletingPathExtension`, `appendingPathComponent`),
/// without them. Foundation's `deletingLastPathComponent` traps on Linux
/// (swift 6.3.1) for some names without a `/`: `pinmint sprite … -o x`
/// crashed in it. Plain string work, so it lives in the lowest module,
/// which every other one imports.
package enum PathName {
    /// `path` without trailing slashes ("a/b/" → "a/b"; "/" stays).
    private static func trimmed(_ path: String) -> Substring {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    /// The folder part: "a/b" → "a", "/x" → "/", "x" → "", "a/b/" → "a".
    package static func folder(of path: String) -> String {
        let path = trimmed(path)
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        var folder = path[..<slash]
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return String(folder)
    }

    /// The last component: "a/b" → "b", "x/" → "x", "/" → "/".
    package static func lastComponent(of path: String) -> String {
        let path = trimmed(path)
        if path == "/" { return "/" }
        guard let slash = path.lastIndex(of: "/") else { return String(path) }
        return String(path[path.index(after: slash)...])
    }

    /// Where the last component's extension starts (its dot), or nil: a
    /// name that starts with its only dot (".hidden") has none.
    private static func extensionDot(_ path: Substring) -> Substring.Index? {
        let nameStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[nameStart...].lastIndex(of: "."), dot > nameStart else { return nil }
        return dot
    }

    /// The last component's extension, without its dot: "a/b.json" → "json", "a/b" → "".
    package static func pathExtension(of path: String) -> String {
        let path = trimmed(path)
        guard let dot = extensionDot(path) else { return "" }
        return String(path[path.index(after: dot)...])
    }

    /// `path` without its last component's extension: "a/b.json" → "a/b".
    package static func deletingExtension(_ path: String) -> String {
        let path = trimmed(path)
        guard let dot = extensionDot(path) else { return String(path) }
        return String(path[..<dot])
    }

    /// `component` appended with one `/`: ("a", "b") → "a/b", ("a/", "b") → "a/b", ("", "b") → "b".
    package static func appending(_ component: String, to path: String) -> String {
        if path.isEmpty { return component }
        if component.isEmpty { return path }
        let folder = path.hasSuffix("/") ? String(trimmed(path)) : path
        return (folder == "/" ? "" : folder) + "/" + (component.hasPrefix("/") ? String(component.dropFirst()) : component)
    }
}
