import Foundation

/// Files that are written together or not at all: the images of one
/// `pinmint render` (every scale and variant, and its metadata), a sprite's
/// PNG and JSON at every ratio, and with `pinmint batch --sprite` its index
/// too. `PNGEncoder.writeAtomically` is a set of its own.
///
/// Each file is first written whole to a temporary file beside its target
/// (`stage`); `commit` then writes what is meant for standard output (`-`)
/// and renames the files into place, in order. A rename that fails part-way
/// (the target became a folder, a full disk) undoes the renames before it:
/// a target that existed is put back from a hard link taken before it was
/// replaced, a new one is removed. Whatever fails, no temporary file is
/// left, and no target is left half-replaced.
///
/// The alternative, checking every target before writing, still leaves a
/// window in which another process can block a rename; the undo closes it.
///
/// A target that is a symbolic link is replaced (the link, never what it
/// points to); a folder, device, pipe or socket is refused. One set is used
/// from one thread; temporary names are unique across threads and sets.
package final class FileSet {
    private struct Entry {
        let path: String
        let temporary: String
    }
    private var entries: [Entry] = []
    /// Bytes staged for `-`, written to standard output by `commit` before the renames.
    private var standardOutput: [[UInt8]] = []
    private let folderProblem: String
    private static let counter = AtomicCounter()

    /// - Parameter folderProblem: what is said of a target that is a folder
    ///   (default "is a directory"; the sprite says "is a folder; the sprite
    ///   writes a file of this name").
    package init(folderProblem: String = "is a directory") {
        self.folderProblem = folderProblem
    }

    /// The target paths staged so far, in order (`-` not included).
    package var paths: [String] { entries.map(\.path) }

    /// Writes `bytes` to a temporary file beside `path`, to be renamed by
    /// `commit`; for `-`, keeps them for standard output.
    /// - Throws: `PNGError` naming `path` (`''` when empty) when it cannot be
    ///   a target or the temporary file cannot be written; the set is then
    ///   discarded.
    package func stage(_ bytes: [UInt8], for path: String) throws(PNGError) {
        if path == "-" { standardOutput.append(bytes); return }
        if let problem = problem(with: path) {
            discard()
            throw PNGError(file: path.isEmpty ? "''" : path, problem: problem)
        }
        let temporary: String
        do { temporary = try Self.writeTemporary(bytes, beside: path) } catch {
            discard()
            throw error
        }
        entries.append(Entry(path: path, temporary: temporary))
    }

    /// Adds a temporary file written elsewhere (the batch index), to be renamed to `path` by `commit`.
    package func adopt(temporary: String, for path: String) {
        entries.append(Entry(path: path, temporary: temporary))
    }

    /// Writes the bytes for standard output, then renames every staged file
    /// into place; or none of the files.
    /// - Throws: `PNGError` naming the target that could not be replaced (or
    ///   "standard output"): the targets are then as they were before. What
    ///   went to standard output before a failed rename cannot be taken back.
    package func commit() throws(PNGError) {
        // A folder where a file should go is the common failure: report it before writing anything.
        for entry in entries {
            var status = stat()
            if lstat(entry.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
                discard()
                throw PNGError(file: entry.path, problem: folderProblem)
            }
        }
        for bytes in standardOutput {
            do { try PNGEncoder.writeToStandardOutput(bytes) } catch {
                discard()
                throw error
            }
        }
        standardOutput = []
        var done: [(path: String, backup: String?)] = []
        for (position, entry) in entries.enumerated() {
            var backup: String? = nil
            var status = stat()
            if lstat(entry.path, &status) == 0 {
                // A hard link keeps the old file in place until the rename; without one
                // (a file system with no links) the old file steps aside for a moment.
                let name = Self.sibling(of: entry.path, kind: "old")
                if link(entry.path, name) == 0 || rename(entry.path, name) == 0 { backup = name }
            }
            if rename(entry.temporary, entry.path) != 0 {
                let problem = String(cString: strerror(errno))
                if let backup {
                    // Put back what was there (a no-op for a hard link, whose target was never moved).
                    var current = stat()
                    if lstat(entry.path, &current) == 0 { unlink(backup) } else { rename(backup, entry.path) }
                }
                for undo in done.reversed() {
                    if let old = undo.backup { rename(old, undo.path) } else { unlink(undo.path) }
                }
                for rest in entries[position...] { unlink(rest.temporary) }
                entries = []
                throw PNGError(file: entry.path, problem: "cannot move the finished file into place: \(problem)")
            }
            done.append((entry.path, backup))
        }
        for finished in done { if let backup = finished.backup { unlink(backup) } }
        entries = []
    }

    /// Removes every staged temporary file and forgets the bytes for standard
    /// output; the targets are untouched.
    package func discard() {
        for entry in entries { unlink(entry.temporary) }
        entries = []
        standardOutput = []
    }

    deinit { discard() }

    /// Why `path` cannot be a target, or nil: it is empty, names a folder
    /// (or ends in `/`), or is a device, pipe or socket, which the rename
    /// would replace rather than write into. A symbolic link is not followed.
    private func problem(with path: String) -> String? {
        if path.isEmpty { return "the file name is empty" }
        if path.hasSuffix("/") { return folderProblem }
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFLNK: return nil
        case S_IFDIR: return folderProblem
        default: return "is not a regular file (a device, pipe or socket); use - for standard output"
        }
    }

    /// Writes all of `bytes` to a new temporary file beside `path`
    /// (`.NAME.PID.N.tmp`, in the same folder so that a rename can replace
    /// the target) and returns its name. Safe from several threads at once.
    /// - Throws: `PNGError` naming `path`, "cannot write: REASON"; no temporary file is left.
    package static func writeTemporary(_ bytes: [UInt8], beside path: String) throws(PNGError) -> String {
        let temporary = temporaryName(beside: path)
        if let failure = writeNewFile(bytes, at: temporary) {
            throw PNGError(file: path, problem: "cannot write: \(String(cString: strerror(failure.code)))")
        }
        return temporary
    }

    /// Writes all of `bytes` to a new file `temporary` (a name from
    /// `temporaryName`, which must not exist): nil when done, else the error
    /// number, and whether it came from creating the file (the folder's
    /// problem) or from writing it. A file not written whole is removed.
    package static func writeNewFile(_ bytes: [UInt8], at temporary: String) -> (code: Int32, creating: Bool)? {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return (errno, true) }
        let failure = PNGEncoder.writeAll(bytes, to: descriptor)
        let closed = close(descriptor) == 0
        if let code = failure ?? (closed ? nil : errno) {
            unlink(temporary)
            return (code, false)
        }
        return nil
    }

    /// A new name for a temporary file beside `path` (`.NAME.PID.N.tmp`,
    /// unique in this process), for writers that fill the file themselves
    /// (the batch index) and then `adopt` it or rename it into place.
    package static func temporaryName(beside path: String) -> String { sibling(of: path, kind: "tmp") }

    /// A name beside `path`: `.NAME.PID.N.KIND`. The path is split on its
    /// UTF-8 bytes: NSString's path methods took as long as writing a
    /// marker's file in `pinmint batch`.
    private static func sibling(of path: String, kind: String) -> String {
        let utf8 = path.utf8
        let nameStart = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        return String(path[..<nameStart]) + "." + String(path[nameStart...]) + ".\(getpid()).\(counter.increment()).\(kind)"
    }
}

/// A counter shared by threads: numbers for temporary names here, the next
/// task for worker threads in the sprites module.
package final class AtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    package init() {}

    /// The value before the increment.
    package func increment() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
