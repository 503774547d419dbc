import Foundation
import PinmintGeometry

/// Files that are written together or not at all: a sprite's PNG and JSON
/// at every ratio, and with `pinmint batch --sprite` its index too.
///
/// Each file is first written whole to a temporary file beside its target
/// (`stage`); `commit` then renames them into place. A rename that fails
/// part-way (the target became a folder, a full disk) undoes the renames
/// before it: a target that existed is put back from a hard link taken
/// before it was replaced, a new one is removed. Whatever fails, no
/// temporary file is left, and no target is left half-replaced.
///
/// The alternative, checking every target before writing, still leaves a
/// window in which another process can block a rename; the undo closes it.
public final class FileSet {
    private struct Entry {
        let path: String
        let temporary: String
    }
    private var entries: [Entry] = []
    private static let counter = AtomicCounter()

    public init() {}

    /// The target paths staged so far, in order.
    public var paths: [String] { entries.map(\.path) }

    /// A temporary name beside `path`: `.NAME.PID.N.KIND`.
    private static func sibling(of path: String, kind: String) -> String {
        let folder = PathName.folder(of: path)
        let name = PathName.lastComponent(of: path)
        return (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).\(counter.increment()).\(kind)"
    }

    /// Writes `bytes` to a temporary file beside `path`, to be renamed by `commit`.
    /// - Throws: `SpriteError` naming `path` when the temporary file cannot be
    ///   written (the set is then discarded).
    public func stage(_ bytes: [UInt8], for path: String) throws(SpriteError) {
        let temporary = Self.sibling(of: path, kind: "tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            let problem = String(cString: strerror(errno))
            discard()
            throw SpriteError(input: path, problem: "cannot write: \(problem)")
        }
        if let failure = AtomicFile.writeAndClose(bytes, to: descriptor) {
            unlink(temporary)
            discard()
            throw SpriteError(input: path, problem: "cannot write: \(failure)")
        }
        entries.append(Entry(path: path, temporary: temporary))
    }

    /// Adds a temporary file written elsewhere (the batch index), to be renamed to `path` by `commit`.
    public func adopt(temporary: String, for path: String) {
        entries.append(Entry(path: path, temporary: temporary))
    }

    /// Renames every staged file into place, or none.
    /// - Throws: `SpriteError` naming the target that could not be replaced:
    ///   the targets are then as they were before.
    public func commit() throws(SpriteError) {
        // A folder where a file should go is the common failure: report it before renaming anything.
        for entry in entries {
            var status = stat()
            if lstat(entry.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
                discard()
                throw SpriteError(input: entry.path, problem: "is a folder; the sprite writes a file of this name")
            }
        }
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
                throw SpriteError(input: entry.path, problem: "cannot move the finished file into place: \(problem)")
            }
            done.append((entry.path, backup))
        }
        for finished in done { if let backup = finished.backup { unlink(backup) } }
        entries = []
    }

    /// Removes every staged temporary file; the targets are untouched.
    public func discard() {
        for entry in entries { unlink(entry.temporary) }
        entries = []
    }

    deinit { discard() }
}
