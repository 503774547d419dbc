import Foundation
import PinmintGeometry
import PinmintMarkers

/// Sprite ids and batch marker ids: they name files, so they must be safe as one.
public enum SpriteID {
    /// The longest id in UTF-8 bytes (file names take 255; room for `-selected@3x.png`).
    public static let maximumBytes = 200

    /// Why `id` cannot be an id, or nil. Ids may hold letters of any script
    /// with their combining marks (a decomposed é, Devanagari's virama, Thai
    /// tone marks), the joiners U+200C and U+200D and the middle dots · and ・
    /// that words of some scripts hold, digits, and `-_.+,=()@ `, and `/`
    /// between folder-like parts (sprite ids only; see `allowsSlash`).
    public static func problem(_ id: String, allowsSlash: Bool = true) -> String? {
        if id.isEmpty { return "the id is empty" }
        if id.utf8.count > maximumBytes { return "the id is \(id.utf8.count) bytes long; at most \(maximumBytes)" }
        if id.hasPrefix(".") || id.hasPrefix("-") { return "the id '\(id)' starts with '\(id.first!)'" }
        for character in id.unicodeScalars {
            if character == "/" && allowsSlash { continue }
            if character.properties.isAlphabetic || ("0"..."9").contains(character) || "-_.+,=()@ ".unicodeScalars.contains(character)
                || character.properties.numericType != nil || wordMarks.contains(character.properties.generalCategory)
                || "\u{200C}\u{200D}\u{00B7}\u{30FB}".unicodeScalars.contains(character) { continue }
            return "the id '\(id)' holds '\(character)' (allowed: letters, digits and -_.+,=()@ and spaces\(allowsSlash ? ", '/' between parts" : ""))"
        }
        if allowsSlash && id.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0.hasPrefix(".") }) {
            return "the id '\(id)' has an empty or hidden part between '/'"
        }
        return nil
    }

    /// Combining marks, which belong to the letter before them.
    private static let wordMarks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
}

extension JSONValue {
    var stringValue: String? { if case .string(let text) = self { return text } else { return nil } }
}

/// JSON text of a `JSONValue` (keys sorted), to hand an edited description back to `MarkerFile`.
enum JSONText {
    static func serialize(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let value): return number(value)
        case .string(let text): return quote(text)
        case .array(let items): return "[" + items.map(serialize).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { quote($0) + ":" + serialize(members[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// 2 for 2.0; other numbers as Swift prints them (shortest round-trip).
    static func number(_ value: Double) -> String {
        value.plainDescription
    }

    static func quote(_ text: String) -> String {
        // Most texts (ids, file names) need no escape: one scan of the bytes, no rebuilding.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

/// Which file a path names: its device and inode, so that two paths to one
/// file (through `..`, symbolic links or hard links) compare equal.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    /// nil when nothing is at `path` (a file that does not exist is no other file).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// One result slot per task, filled by worker threads.
final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, SpriteError>?]
    private var firstFailure = Int.max

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Value, SpriteError>) {
        lock.lock(); defer { lock.unlock() }
        slots[index] = result
        if case .failure = result { firstFailure = min(firstFailure, index) }
    }

    func get(_ index: Int) -> Result<Value, SpriteError>? {
        lock.lock(); defer { lock.unlock() }
        return slots[index]
    }

    /// True when a task before `index` failed (its error is the one reported; later work is wasted).
    func hasFailure(before index: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return firstFailure < index
    }
}

/// 64-bit FNV-1a: a fast, stable hash (the same in every process, unlike
/// Swift's `Hasher`) for recipes and file contents in a batch index.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf29ce484222325

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        value = hash
    }

    mutating func add(_ text: String) {
        var copy = text
        copy.withUTF8 { add(UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(0)) { add($0) }
    }

    mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    var hex: String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}

/// The folders a run makes for its output (`sprite -o OUT/NAME`, `batch -o
/// DIR`), so that a run that stops can remove those it made and nothing else.
package enum OutputFolders {
    /// Makes `folder` and every missing folder above it, one level at a time,
    /// and returns those this call made, outermost first (none when `folder`
    /// exists; "" is the current folder). A folder that a path through `..`
    /// reaches (`new/../keep`) and that was already there is not one of them.
    /// - Throws: `SpriteError` naming `folder`: it, or a folder above it, is a
    ///   file; or a level cannot be made (the reason). Those made before are removed again.
    package static func make(_ folder: String) throws(SpriteError) -> [String] {
        var isFolder: ObjCBool = false
        // Name the part of the path that is in the way (Foundation says only "error 512").
        var missing: [String] = []
        var current = folder
        while !current.isEmpty && current != "/" {
            if FileManager.default.fileExists(atPath: current, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    throw SpriteError(input: folder, problem: current == folder ? "exists and is not a folder"
                                      : "cannot create the folder: \(current) is a file")
                }
                break
            }
            missing.append(current)
            current = PathName.folder(of: current)
        }
        var made: [String] = []
        for path in missing.reversed() {
            if mkdir(path, 0o777) == 0 { made.append(path); continue }
            let code = errno
            guard code == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                removeEmpty(made)
                throw SpriteError(input: folder, problem: "cannot create the folder"
                                  + (path == folder ? "" : " \(path)") + ": \(String(cString: strerror(code)))")
            }
        }
        return made
    }

    /// Removes `folders` (outermost first, as `make` returns them), innermost
    /// first, each only while it is empty: what a stopped run made and left nothing in.
    package static func removeEmpty(_ folders: [String]) {
        for folder in folders.reversed() where rmdir(folder) != 0 { return }
    }
}
