import Foundation
import PinmintGeometry

/// One batch at a time in an output folder: an exclusive `flock` on the
/// folder's `.pinmint.lock`, held while the batch runs and removed when it
/// ends. Two batches into one folder at once both exited 0, and one's index
/// listed hashes of files the other had replaced; now the second fails at
/// once with one line naming the first's process.
///
/// The kernel drops the lock when its process dies, however it dies, so a
/// killed batch never blocks the next one; the file it leaves is taken
/// over. A lock file is removed while still locked, and whoever locked a
/// file that is no longer the folder's (`fstat` against `stat`) tries
/// again, so a run starting as another ends never shares a lock with a third.
package final class OutputFolderLock {
    /// The lock file's name inside the output folder; a dot name, which
    /// `--prune` never removes.
    package static let fileName = ".pinmint.lock"
    /// The lock file's full path (`folder/.pinmint.lock`).
    package let path: String
    private var descriptor: Int32

    /// Locks `folder` (which exists) for this process.
    /// - Throws: `SpriteError` naming the folder when another process holds
    ///   the lock, or the lock file cannot be made.
    package init(folder: String) throws(SpriteError) {
        path = PathName.appending(OutputFolderLock.fileName, to: folder)
        descriptor = -1
        for _ in 0..<16 {
            let path = self.path
            // Known to TemporaryFiles from before it exists: an interrupted batch removes it.
            let opened = TemporaryFiles.creating(path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
            guard opened >= 0 else {
                TemporaryFiles.finished(path)
                throw SpriteError(input: folder, problem: "cannot lock the output folder (\(OutputFolderLock.fileName)): \(String(cString: strerror(errno)))")
            }
            if flock(opened, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                let holder = OutputFolderLock.holder(opened)
                close(opened)
                guard code == EWOULDBLOCK else {
                    throw SpriteError(input: folder, problem: "cannot lock the output folder (\(OutputFolderLock.fileName)): \(String(cString: strerror(code)))")
                }
                throw SpriteError(input: folder, problem: "another pinmint batch\(holder.map { " (process \($0))" } ?? "") is writing into this "
                                  + "folder; wait for it to end, or give another -o")
            }
            var locked = stat(), named = stat()
            if fstat(opened, &locked) == 0, stat(path, &named) == 0, locked.st_ino == named.st_ino, locked.st_dev == named.st_dev {
                descriptor = opened
                let text = Array("\(getpid())\n".utf8)
                _ = ftruncate(opened, 0)
                _ = text.withUnsafeBytes { pwrite(opened, $0.baseAddress!, $0.count, 0) }
                return
            }
            // Removed or replaced by the batch that held it, between our open and our lock.
            close(opened)
        }
        throw SpriteError(input: folder, problem: "cannot lock the output folder: \(OutputFolderLock.fileName) keeps being replaced")
    }

    deinit { release() }

    /// Removes the lock file and drops the lock (idempotent).
    package func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        TemporaryFiles.finished(path)
        close(descriptor)
        descriptor = -1
    }

    /// The process id a lock file holds, when it holds one.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Temporary files that killed runs left: `.NAME.PID.N.tmp` (`FileSet.temporaryName`)
/// whose process is gone. A `kill -9` leaves them, and nothing else ever
/// removes them; a batch holding its folder's lock removes them from the
/// folder (not below it: markers are written at its top level) and says so.
package enum StaleTemporaries {
    /// Removes such files in `folder`; returns the names removed, sorted.
    /// A file whose process is alive (another command writing there, or
    /// this one) is left alone.
    package static func remove(in folder: String) -> [String] {
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return [] }
        defer { closedir(directory) }
        var removed: [String] = []
        let own = getpid()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let process = processID(ofTemporary: name), process != own, kill(process, 0) != 0, errno == ESRCH else { continue }
            if unlink(PathName.appending(name, to: folder)) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// The process id in a temporary file's name (`.NAME.PID.N.tmp`), or nil when it is not one.
    static func processID(ofTemporary name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts.last!.allSatisfy(\.isASCIINumber), !parts.last!.isEmpty,
              let process = Int32(parts[parts.count - 2]), process > 0 else { return nil }
        return process
    }
}

private extension Character {
    var isASCIINumber: Bool { isASCII && isNumber }
}
