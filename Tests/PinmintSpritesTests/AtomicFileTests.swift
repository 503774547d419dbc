import Foundation
@testable import PinmintSprites
import Testing

/// `AtomicFile` tells a target that cannot be replaced (the batch fails
/// that row) from a folder that takes no files (the batch stops).
@Suite struct AtomicFileTests {
    @Test func aFolderInTheTargetsPlaceIsTheFilesProblem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/a.png", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let blocked = #expect(throws: AtomicFile.Failure.self) { try AtomicFile.writeFile([1, 2, 3], to: folder + "/a.png") }
        #expect(blocked?.stopsTheFolder == false)
        #expect(blocked?.error.description == "\(folder)/a.png: cannot move the finished file into place: Is a directory")
        try AtomicFile.writeFile([1, 2, 3], to: folder + "/b.png")
        #expect(FileManager.default.contents(atPath: folder + "/b.png") == Data([1, 2, 3]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a.png", "b.png"])
    }

    @Test func aFolderThatIsGoneStopsEveryWrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-atomic-\(UUID().uuidString)").path
        let gone = #expect(throws: AtomicFile.Failure.self) { try AtomicFile.writeFile([1], to: folder + "/a.png") }
        #expect(gone?.stopsTheFolder == true)
        #expect(gone?.error.description == "\(folder)/a.png: cannot write: No such file or directory")
    }
}
