import Foundation
import PinmintSprites
import Testing

/// `FileSet`: a sprite's files replace the old ones all together, or not at all.
struct FileSetTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-set-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func commitReplacesEveryFile() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: root + "/s.png"))
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        try set.commit()
        #expect(try String(contentsOfFile: root + "/s.png", encoding: .utf8) == "new png")
        #expect(try String(contentsOfFile: root + "/s.json", encoding: .utf8) == "new json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["s.json", "s.png"])
    }

    /// A folder where the last file goes: nothing is replaced, nothing new stays, no temporary file is left.
    @Test func aBlockedFileLeavesTheOldSetAsItWas() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: root + "/s.png"))
        try FileManager.default.createDirectory(atPath: root + "/s@2x.png", withIntermediateDirectories: false)
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        try set.stage(Array("new png 2x".utf8), for: root + "/s@2x.png")
        #expect(throws: SpriteError(input: root + "/s@2x.png", problem: "is a folder; the sprite writes a file of this name")) { try set.commit() }
        #expect(try String(contentsOfFile: root + "/s.png", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["s.png", "s@2x.png"])
    }

    /// A rename that fails after others succeeded (here: a file adopted from
    /// elsewhere that has vanished) undoes them: old files come back, new ones go.
    @Test func aFailedRenameUndoesTheOnesBefore() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: root + "/s.png"))
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        set.adopt(temporary: root + "/.missing.tmp", for: root + "/index.json")
        #expect(throws: SpriteError.self) { try set.commit() }
        #expect(try String(contentsOfFile: root + "/s.png", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["s.png"])
    }

    /// A link to a folder is a name the set may replace (the rename replaces the link, not the folder).
    @Test func aLinkToAFolderIsReplacedNotRefused() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: root + "/s.png", withDestinationPath: root + "/elsewhere")
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.commit()
        #expect(try String(contentsOfFile: root + "/s.png", encoding: .utf8) == "new png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["elsewhere", "s.png"])
    }

    @Test func discardLeavesNoTemporaryFile() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let set = FileSet()
        try set.stage(Array("x".utf8), for: root + "/s.png")
        set.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }
}
