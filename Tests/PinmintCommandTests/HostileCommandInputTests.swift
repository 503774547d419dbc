import Foundation
import Testing

/// Inputs made as an attacker would make them (issue 21): each crashed,
/// hung or lost data in a command; each must now be one line, a non-zero
/// exit code, and the rest of the work done.
@Suite struct HostileCommandInputTests {
    /// SVG files of 5–12 bytes that crashed Foundation's XMLParser in its
    /// callbacks (SIGILL; SIGSEGV in strlen for `<?pi?>`), with what is said now.
    static let crashingSVGs: [(name: String, bytes: [UInt8], problem: String)] = [
        ("comment", Array("<!--".utf8) + [0xFF] + Array("-->".utf8), "line 1, column 5: the file is not valid UTF-8 (byte 0xFF)"),
        ("attribute", Array("<e x=\"\" ".utf8) + [0xFE] + Array("=\"0".utf8), "line 1, column 9: the file is not valid UTF-8 (byte 0xFE)"),
        ("element", Array("<".utf8) + [0xEE] + Array("ts=".utf8), "line 1, column 2: the file is not valid UTF-8 (byte 0xEE)"),
        ("entity", Array("<v&".utf8) + [0xFE] + Array("r;&".utf8), "line 1, column 4: the file is not valid UTF-8 (byte 0xFE)"),
        ("pi", Array("<?pi?>".utf8), "line 1, column 7: malformed XML: no complete root element (expected <svg ...>)"),
    ]

    static func writeCrashingSVGs(to folder: URL) throws -> [URL] {
        try crashingSVGs.map { example in
            let file = folder.appendingPathComponent("\(example.name).svg")
            try Data(example.bytes).write(to: file)
            return file
        }
    }

    @Test func renderRefusesSVGsThatCrashedTheXMLParser() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (file, example) in zip(try Self.writeCrashingSVGs(to: folder), Self.crashingSVGs) {
            let out = folder.appendingPathComponent("out.png").path
            let result = try runPinmint(["render", file.path, "-o", out])
            #expect(result.status == 2, "\(example.name)")
            #expect(result.standardError == "pinmint: \(file.path): \(example.problem)\n")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func spriteAndMarkerIconsRefuseThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = folder.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        let files = try Self.writeCrashingSVGs(to: icons)
        let sprite = try runPinmint(["sprite", icons.path, "-o", folder.appendingPathComponent("sheet").path])
        #expect(sprite.status == 2)
        #expect(sprite.standardError.hasPrefix("pinmint: \(icons.path)/"), "\(sprite.standardError)")
        #expect(sprite.standardError.filter { $0 == "\n" }.count == 1)
        for (file, example) in zip(files, Self.crashingSVGs) {
            let pin = try runPinmint(["render", "pin", "--icon-file", file.path, "-o", folder.appendingPathComponent("pin.png").path])
            #expect(pin.status == 2)
            #expect(pin.standardError == "pinmint: \(file.path): not a usable SVG icon: \(example.problem)\n")
        }
    }

    /// A row naming such an icon killed the batch with signal 11: later rows
    /// never rendered, no index, a 0-byte `.index.json.PID.0.tmp` stayed.
    @Test func aBatchRowWithACrashingIconFailsOnlyThatRow() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try Self.writeCrashingSVGs(to: folder)
        var csv = "id,icon\n"
        for (number, file) in files.enumerated() { csv += "bad\(number),\(file.path)\nok\(number),\n" }
        let data = folder.appendingPathComponent("rows.csv")
        try Data(csv.utf8).write(to: data)
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--set", "icon-file={icon}"])
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == files.count, "\(result.standardError)")
        for (number, example) in Self.crashingSVGs.enumerated() {
            #expect(lines.contains { $0.hasSuffix("rows.csv:\(2 + 2 * number): \(files[number].path): not a usable SVG icon: \(example.problem)") },
                    "\(example.name)")
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ["index.json"] + (0..<files.count).map { "ok\($0).png" })
    }
}

extension HostileCommandInputTests {
    /// `--picture /dev/zero` read 512 MiB (560 MB resident) before refusing;
    /// an icon from /dev/zero was read by FileManager with no end at all.
    @Test func devicesAreRefusedAsPicturesAndBoundedAsIcons() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("z.png").path
        let picture = try runPinmint(["render", "callout", "--picture", "/dev/zero", "-o", out])
        #expect(picture.status == 2)
        #expect(picture.standardError == "pinmint: /dev/zero: not a usable PNG picture: a character device, not a file\n")
        let icon = try runPinmint(["render", "pin", "--icon-file", "/dev/zero", "-o", out])
        #expect(icon.status == 2)
        #expect(icon.standardError == "pinmint: /dev/zero: not a usable SVG icon: the input holds more than 16777216 bytes; "
                + "at most that many are read\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// A missing picture named in a description named the picture only,
    /// not the description nor the place in it.
    @Test func aMissingPictureNamesTheDescriptionAndThePlace() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let description = folder.appendingPathComponent("marker.json")
        try Data(#"{"marker": {"type": "box", "children": [{"type": "text", "text": "a"}, {"type": "picture", "file": "gone.png", "width": 8, "height": 8}]}}"#.utf8)
            .write(to: description)
        let result = try runPinmint(["render", description.path, "-o", folder.appendingPathComponent("m.png").path])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(description.path): marker.children[1].file: no such picture file: "
                + "\(folder.appendingPathComponent("gone.png").path)\n")
    }
}

extension HostileCommandInputTests {
    /// A 16384x1024 PNG icon marked for a distance field was decoded and
    /// distance-fielded (367 MB, 2 s) before the sheet's size refused it.
    /// Its header is all that is read now: the body here is not even a
    /// valid PNG, which decoding would have said first.
    @Test func anIconLargerThanTheSheetIsRefusedFromItsHeader() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icons = folder.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        func bigEndian(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bigEndian(13) + Array("IHDR".utf8)
            + bigEndian(16384) + bigEndian(1024) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
        try Data(header + Array("not the rest of a PNG".utf8)).write(to: icons.appendingPathComponent("wide.png"))
        try Data(#"{"icons": {"wide": {"sdf": true}}}"#.utf8).write(to: icons.appendingPathComponent("wide.json"))
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="5000" height="10"/>"#.utf8).write(to: icons.appendingPathComponent("long.svg"))
        let result = try runPinmint(["sprite", icons.appendingPathComponent("wide.png").path, icons.appendingPathComponent("wide.json").path,
                                     "-o", folder.appendingPathComponent("sheet").path])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(icons.path)/wide.png: 'wide' is 16384x1024 pixels at @1x, "
                + "larger than the sheet's maximum side of 4096 (--max-size)\n")
        let svg = try runPinmint(["sprite", icons.appendingPathComponent("long.svg").path, "--ratio", "2",
                                  "-o", folder.appendingPathComponent("sheet").path])
        #expect(svg.standardError == "pinmint: \(icons.path)/long.svg: 'long' is 10000x20 pixels at @2x, "
                + "larger than the sheet's maximum side of 4096 (--max-size)\n")
    }
}

/// Output folders that other runs write into, or that killed runs left.
extension HostileCommandInputTests {
    /// A process id that was alive a moment ago and is not now.
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// A batch that runs until it is stopped, and the folder it writes.
    static func startLongBatch(in folder: URL) throws -> (Process, String) {
        let data = try writeIDs(count: 300_000, to: folder.appendingPathComponent("many.csv"))
        let out = folder.appendingPathComponent("out").path
        let process = Process()
        process.executableURL = pinmintBinary
        process.arguments = ["batch", data.path, "-o", out, "--style", "pin", "--jobs", "1", "-q"]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !FileManager.default.fileExists(atPath: out + "/r1.png") { usleep(1000) }
        return (process, out)
    }

    /// After `kill -9`, `.NAME.png.PID.N.tmp` and `.index.json.PID.N.tmp`
    /// piled up: no later run removed them.
    @Test func temporariesOfKilledRunsAreRemovedAndSaidSo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let dead = try Self.deadProcessID(), alive = ProcessInfo.processInfo.processIdentifier
        let stale = [".a.png.\(dead).0.tmp", ".index.json.\(dead).7.tmp"], live = ".b.png.\(alive).1.tmp"
        for name in stale + [live, ".hidden.tmp"] { try Data("x".utf8).write(to: out.appendingPathComponent(name)) }
        let data = try writeIDs(count: 2, to: folder.appendingPathComponent("ids.csv"))
        let result = try runPinmint(["batch", data.path, "-o", out.path, "--style", "pin"])
        #expect(result.status == 0)
        #expect(result.standardError.hasPrefix("pinmint: batch: removed 2 temporary files that killed runs left in \(out.path) "
                                               + "(\(stale.sorted().joined(separator: ", ")))\n"), "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files == [".b.png.\(alive).1.tmp", ".hidden.tmp", "index.json", "r0.png", "r1.png"])
    }

    /// Two batches into one folder both exited 0, and one's index listed
    /// hashes of files the other had replaced.
    @Test func aSecondBatchIntoTheSameFolderIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, out) = try Self.startLongBatch(in: folder)
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL); first.waitUntilExit() } }
        let data = try writeIDs(count: 2, to: folder.appendingPathComponent("ids.csv"))
        let second = try runPinmint(["batch", data.path, "-o", out, "--style", "pin"])
        #expect(second.status == 2)
        #expect(second.standardError == "pinmint: \(out): another pinmint batch (process \(first.processIdentifier)) is writing "
                + "into this folder; wait for it to end, or give another -o\n")
        // Killed with SIGKILL, the first leaves its lock file and temporaries; the kernel has dropped its lock.
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let third = try runPinmint(["batch", data.path, "-o", out, "--style", "pin"])
        #expect(third.status == 0, "\(third.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    /// `batch --sprite S --index a.png` wrote the index's JSON into a.png.
    @Test func aSpriteBatchRefusesAPNGIndexName() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try writeIDs(count: 2, to: folder.appendingPathComponent("ids.csv"))
        let out = folder.appendingPathComponent("out").path
        let result = try runPinmint(["batch", data.path, "-o", out, "--style", "pin", "--sprite", "S", "--index", "a.png"])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: --index a.png: the index is JSON, not a PNG image; give it a name that does not end in .png\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
