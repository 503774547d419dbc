import Foundation
import PinmintPNG
import Testing

/// `FileSet`, the one all-or-nothing writer (render's images and metadata,
/// `png convert`, a sprite's sheets and JSON, batch's sprite and index):
/// the files replace the old ones all together, or not at all.
struct FileSetTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-set-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A new folder holding `s.png` with the text "old": the set a test replaces.
    func folderWithOldSheet() throws -> String {
        let root = try folder()
        try Data("old".utf8).write(to: URL(fileURLWithPath: root + "/s.png"))
        return root
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func commitReplacesEveryFile() throws {
        let root = try folderWithOldSheet()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        try set.commit()
        #expect(try text(root + "/s.png") == "new png")
        #expect(try text(root + "/s.json") == "new json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["s.json", "s.png"])
    }

    /// A folder where a file goes, there when the file is staged: refused then, with the message the set was made with.
    @Test(arguments: [(nil, "is a directory"), ("is a folder; the sprite writes a file of this name",
                                                 "is a folder; the sprite writes a file of this name")])
    func aFolderTargetIsRefusedWhenStaged(folderProblem: String?, message: String) throws {
        let root = try folderWithOldSheet()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/s@2x.png", withIntermediateDirectories: false)
        let set = folderProblem.map { FileSet(folderProblem: $0) } ?? FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        let error = #expect(throws: PNGError.self) { try set.stage(Array("new png 2x".utf8), for: root + "/s@2x.png") }
        #expect(error?.description == "\(root)/s@2x.png: \(message)")
        #expect(try text(root + "/s.png") == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["s.png", "s@2x.png"], "no temporary file")
    }

    /// A folder that appears at the last target after staging: nothing is
    /// replaced, nothing new stays, no temporary file is left.
    @Test func aFolderMadeAfterStagingLeavesTheOldSetAsItWas() throws {
        let root = try folderWithOldSheet()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        try set.stage(Array("new png 2x".utf8), for: root + "/s@2x.png")
        try FileManager.default.createDirectory(atPath: root + "/s@2x.png", withIntermediateDirectories: false)
        let error = #expect(throws: PNGError.self) { try set.commit() }
        #expect(error?.description == "\(root)/s@2x.png: is a directory")
        #expect(try text(root + "/s.png") == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["s.png", "s@2x.png"])
    }

    /// The second rename fails after the first was done (its finished file
    /// was swapped for a folder, which cannot replace a file): the first is
    /// rolled back, the old file is back, the new one is gone.
    @Test(arguments: [true, false])
    func aRenameThatFailsHalfWayUndoesTheOnesBefore(firstExisted: Bool) throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        if firstExisted { try Data("old png".utf8).write(to: URL(fileURLWithPath: root + "/s.png")) }
        try Data("old json".utf8).write(to: URL(fileURLWithPath: root + "/s.json"))
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        let temporary = try #require(try FileManager.default.contentsOfDirectory(atPath: root).first { $0.hasPrefix(".s.json.") })
        try FileManager.default.removeItem(atPath: root + "/" + temporary)
        try FileManager.default.createDirectory(atPath: root + "/" + temporary + "/inside", withIntermediateDirectories: true)
        let error = #expect(throws: PNGError.self) { try set.commit() }
        #expect(error?.description.hasPrefix("\(root)/s.json: cannot move the finished file into place: ") == true,
                "\(String(describing: error))")
        #expect(try text(root + "/s.json") == "old json")
        if firstExisted { #expect(try text(root + "/s.png") == "old png") }
        try FileManager.default.removeItem(atPath: root + "/" + temporary)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == (firstExisted ? ["s.json", "s.png"] : ["s.json"]),
                "no backup or temporary file left")
    }

    /// A rename that fails after others succeeded (here: a file adopted from
    /// elsewhere that has vanished) undoes them: old files come back, new ones go.
    @Test func aFailedRenameOfAnAdoptedFileUndoesTheOnesBefore() throws {
        let root = try folderWithOldSheet()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let set = FileSet()
        try set.stage(Array("new png".utf8), for: root + "/s.png")
        try set.stage(Array("new json".utf8), for: root + "/s.json")
        set.adopt(temporary: root + "/.missing.tmp", for: root + "/index.json")
        #expect(throws: PNGError.self) { try set.commit() }
        #expect(try text(root + "/s.png") == "old")
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
        #expect(try text(root + "/s.png") == "new png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["elsewhere", "s.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/elsewhere").isEmpty)
    }

    @Test func anEmptyNameIsRefused() throws {
        let error = #expect(throws: PNGError.self) { try FileSet().stage([1], for: "") }
        #expect(error?.description == "'': the file name is empty")
    }

    @Test func discardLeavesNoTemporaryFile() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let set = FileSet()
        try set.stage(Array("x".utf8), for: root + "/s.png")
        set.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }

    /// `PNGEncoder.writeAtomically` is a `FileSet`: a folder at its second
    /// file leaves the first as it was, and no temporary file.
    @Test func writeAtomicallyWritesAllOrNothing() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: root + "/a.png"))
        try FileManager.default.createDirectory(atPath: root + "/a@2x.png", withIntermediateDirectories: false)
        let error = #expect(throws: PNGError.self) {
            try PNGEncoder.writeAtomically([(Array("new".utf8), root + "/a.png"), (Array("new 2x".utf8), root + "/a@2x.png")])
        }
        #expect(error?.description == "\(root)/a@2x.png: is a directory")
        #expect(try text(root + "/a.png") == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["a.png", "a@2x.png"])
        try PNGEncoder.writeAtomically([(Array("new".utf8), root + "/a.png"), (Array("new json".utf8), root + "/a.json")])
        #expect(try text(root + "/a.png") == "new" && text(root + "/a.json") == "new json")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["a.json", "a.png", "a@2x.png"])
    }
}
