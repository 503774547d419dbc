import Foundation
import Testing

/// Bad input gets one line that names it (the file, the line, the place in
/// the JSON) and says what is wrong; each test here is a message that was
/// vague or wrong before.
@Suite struct InputMessageTests {
    /// A malformed JSON line or GeoJSON feature said "not valid JSON (The
    /// given data was not valid JSON)", with no reason and no place.
    @Test func batchNamesTheMalformedRowAndWhy() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = folder.appendingPathComponent("rows.jsonl"), places = folder.appendingPathComponent("places.geojson")
        try Data("{\"id\": \"a\", \"price\": 1}\n{\"id\": \"b\", \"price\": 2\n{\"id\": \"c\", \"price\": 3}\n".utf8).write(to: rows)
        try Data("""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"id": "a", "price": 1}},
          {"type": "Feature", "properties": {"id": "b", "price": 2}},
          {"type": "Feature", "properties": ["c", 3]}]}
        """.utf8).write(to: places)
        let out = folder.appendingPathComponent("out").path
        let fromLines = try runPinmint(["batch", rows.path, "-o", out, "--style", "price-tag", "--set", "label={price}"])
        #expect(fromLines.status == 1)
        #expect(fromLines.standardError == "pinmint: \(rows.path):2: not valid JSON: unexpected end of the text: the object at character 1 is not closed\n")
        let fromFeatures = try runPinmint(["batch", places.path, "-o", out + "2", "--style", "price-tag", "--set", "label={price}"])
        #expect(fromFeatures.status == 1)
        #expect(fromFeatures.standardError == "pinmint: \(places.path):4: features[2].properties: expected an object, found an array\n")
    }

    /// A file name that is not UTF-8 reached diff, png and golden with U+FFFD
    /// in place of the bad byte: "no such file" for a file that is there, and
    /// `png convert -o` wrote a file of another name. Each is now refused
    /// as render, sprite and batch refuse it (diff and golden: their code 3).
    @Test(arguments: [
        ("diff", "diff \"$1\" \"$2\"", Int32(3)),
        ("diff", "diff \"$1\" \"$1\" --diff \"$2\"", Int32(3)),
        ("png", "png info \"$2\"", Int32(2)),
        ("png", "png convert \"$2\" -o \"$1.copy.png\"", Int32(2)),
        ("png", "png convert \"$1\" -o \"$2.copy.png\"", Int32(2)),
        ("golden", "golden \"$3\"", Int32(3)),
    ])
    func fileNamesThatAreNotUTF8AreRefused(_ command: String, _ call: String, _ status: Int32) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = repositoryRoot.appendingPathComponent("Golden/markers/pin-short@2x.png")
        let good = folder.appendingPathComponent("a.png").path
        try FileManager.default.copyItem(atPath: png.path, toPath: good)
        // $2 is a copy of a.png named b\xFF.png, $3 a folder g\xFF; the shell makes the bytes Swift's strings cannot.
        let result = try runPinmintInShell("""
            set -- "$1" "$(printf 'b\\377.png')" "$(printf 'g\\377')"
            cp "$1" "$2" && mkdir "$3" && cp "$1" "$3/a.png" && exec "$0" \(call)
            """, arguments: [good], in: folder)
        let message = result.standardError
        #expect(result.status == status, "\(message)")
        let name = call.contains("$3") ? "g\\xFF" : call.contains("$2.copy") ? "b\\xFF.png.copy.png" : "b\\xFF.png"
        #expect(message == "pinmint: \(name): the argument is not valid UTF-8 (byte 2 is 0xFF); pinmint \(command) reads names and "
                + "text as UTF-8: rename the file or fix the text\n")
        // Nothing was written: the folder holds a.png, b\xFF.png and g\xFF only.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
    }

    /// `styles FILE --show` printed descriptions that `render FILE` refuses
    /// (it only parsed the file): now it renders first, as render does, and
    /// refuses with render's line and code. One case per stage render
    /// finds the problem at: reading, filling in options, drawing.
    @Test(arguments: [
        ("bad-colour.json", ##"{"marker": {"type": "box", "fill": "#zz0", "width": 10, "height": 10}}"##),
        ("unknown-key.json", ##"{"marker": {"type": "box", "fil": "#f00", "width": 10, "height": 10}}"##),
        ("bad-option.json", ##"{"preset": "price-tag", "options": {"fill": "#zz"}}"##),
        ("missing-picture.json", ##"{"preset": "callout", "options": {"picture": "nowhere.png"}}"##),
        ("missing-icon.json", ##"{"marker": {"type": "icon", "file": "nowhere.svg", "width": 10, "height": 10}}"##),
    ])
    func stylesShowRefusesWhatRenderRefuses(_ name: String, _ json: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name).path
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let out = folder.appendingPathComponent("out.png").path
        let rendered = try runPinmint(["render", file, "-o", out])
        let shown = try runPinmint(["styles", file, "--show"])
        #expect(rendered.status == 2 && rendered.standardError.hasPrefix("pinmint: ") && rendered.standardError.hasSuffix("\n"),
                "\(rendered.standardError)")
        #expect(shown.status == 2 && shown.standardError == rendered.standardError, "\(shown.standardError)")
        #expect(shown.standardOutput.isEmpty)
    }

    @Test func stylesShowStillShowsAFileThatRenders() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("dot.json").path
        let json = ##"{"marker": {"type": "box", "fill": "#f00", "width": 10, "height": 10}}"##
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let shown = try runPinmint(["styles", file, "--show"])
        #expect(shown.status == 0 && String(decoding: shown.standardOutput, as: UTF8.self) == json + "\n", "\(shown.standardError)")
        let icon = try runPinmint(["styles", repositoryRoot.appendingPathComponent("Golden/scenes/callout.svg").path, "--show"])
        #expect(icon.status == 2 && icon.standardError.contains("is an SVG icon, not a marker style"), "\(icon.standardError)")
    }

    /// `styles ../svg/pin.svg` said a file that does not exist "is an SVG
    /// icon", and `render` said only "cannot read the file" for it.
    @Test func aMissingSVGFileIsSaidToBeMissing() throws {
        let missing = "/no/such/folder/pin.svg"
        let styles = try runPinmint(["styles", missing])
        #expect(styles.status == 2 && styles.standardError == "pinmint: styles: \(missing): no such file\n", "\(styles.standardError)")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rendered = try runPinmint(["render", missing, "-o", folder.appendingPathComponent("out.png").path])
        #expect(rendered.status == 2 && rendered.standardError == "pinmint: \(missing): cannot read the file: no such file\n",
                "\(rendered.standardError)")
        let folderIcon = folder.appendingPathComponent("icon.svg")
        try FileManager.default.createDirectory(at: folderIcon, withIntermediateDirectories: false)
        let fromFolder = try runPinmint(["render", folderIcon.path, "-o", folder.appendingPathComponent("out.png").path])
        #expect(fromFolder.standardError == "pinmint: \(folderIcon.path): cannot read the file: it is a folder\n", "\(fromFolder.standardError)")
    }

    /// `PINMINT_FONTS` naming a missing folder or a file was passed over
    /// (fonts listed the system's, render said "no fonts found"): every
    /// command that loads fonts now stops with one line naming it, before
    /// it writes anything.
    @Test(arguments: [["fonts"], ["fonts", "--no-system"], ["render", "price-tag", "--label", "1", "-o", "OUT/tag.png"],
                      ["styles", "pin", "--show"], ["batch", "DATA", "-o", "OUT", "--style", "price-tag", "--set", "label={p}"]])
    func aFontsVariableThatIsNotAFolderIsNamed(_ arguments: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d.csv"), out = folder.appendingPathComponent("out")
        try Data("id,p\na,1\n".utf8).write(to: data)
        let arguments = arguments.map { $0 == "DATA" ? data.path : $0.replacingOccurrences(of: "OUT", with: out.path) }
        for (variable, problem) in [(folder.appendingPathComponent("nowhere").path, "no such folder"), (data.path, "a file, not a folder")] {
            let process = Process()
            process.executableURL = pinmintBinary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["PINMINT_FONTS": variable]) { $1 }
            let result = try runToEnd(process)
            let printed = result.standardOutput, message = result.standardError
            #expect(result.status == 2, "\(arguments) \(message)")
            #expect(message == "pinmint: PINMINT_FONTS: '\(variable)': \(problem) (it must name a folder of fonts, such as Pinmint's Fonts/)\n")
            #expect(printed.isEmpty)
            // Nothing written, not even the output folder (batch made it first).
            #expect(!FileManager.default.fileExists(atPath: out.path), "\(arguments)")
        }
    }

    /// A preset file's bad option was reported as a flag never given
    /// (`--labl: price-tag has no option`) or under the preset's name
    /// (`preset price-tag: options.fill: ...`); now it names the file and key.
    @Test(arguments: [
        (##"{"preset": "price-tag", "options": {"labl": "1"}}"##,
         "options.labl: price-tag has no option 'labl' (did you mean 'label'?); see 'pinmint styles price-tag'"),
        (##"{"preset": "price-tag", "options": {"label": "1", "fill": "#zz"}}"##, "options.fill: colour '#zz': 'z' is not a hexadecimal digit"),
        (##"{"preset": "pin", "options": {"label": ["1"]}}"##, "options.label: expected text, found an array"),
    ])
    func presetFileOptionsNameTheFileAndKey(_ json: String, _ problem: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tag.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        let result = try runPinmint(["render", file, "-o", folder.appendingPathComponent("tag.png").path])
        #expect(result.status == 2)
        #expect(result.standardError == "pinmint: \(file): \(problem)\n")
    }

    /// A folder given as a marker file was "cannot read the file", and a file
    /// over the 1 MiB limit was read whole before it was refused (a 3 GB
    /// file took 3 GB): both are refused first, by render and styles alike.
    @Test func foldersAndHugeDescriptionsAreRefusedBeforeReading() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: huge))
        try handle.truncate(atOffset: 1 << 32)   // sparse: no disk used
        try handle.close()
        for (input, problem) in [(folder.path, "a folder, not a marker description file"),
                                 (huge, "the description is 4294967296 bytes; at most 1048576 are read")] {
            for arguments in [["render", input, "-o", folder.appendingPathComponent("out.png").path], ["styles", input, "--show"]] {
                let result = try runPinmint(arguments)
                #expect(result.status == 2 && result.standardError == "pinmint: \(input): \(problem)\n", "\(result.standardError)")
            }
        }
    }

    /// A description read from a pipe (`render <(generate)`, `render
    /// /dev/stdin`) said "cannot read the file"; a device that never ends
    /// must be refused at the size limit, not read without end. A piped
    /// description's relative pictures start from the current folder.
    @Test func descriptionsStreamFromPipesUpToTheLimit() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Golden/markers/pictures/storefront.png"),
                                         to: folder.appendingPathComponent("shop.png"))
        try Data(#"{"preset": "pin", "options": {"picture": "shop.png"}}"#.utf8).write(to: folder.appendingPathComponent("m.json"))
        let piped = try runPinmintInShell("cat m.json | exec \"$0\" render /dev/stdin -o piped.png", in: folder)
        #expect(piped.status == 0, "\(piped.standardError)")
        let direct = folder.appendingPathComponent("direct.png").path
        #expect(try runPinmint(["render", folder.appendingPathComponent("m.json").path, "-o", direct]).status == 0)
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("piped.png").path)
                == FileManager.default.contents(atPath: direct))

        let endless = try runPinmint(["render", "/dev/zero", "-o", folder.appendingPathComponent("zero.png").path])
        #expect(endless.status == 2)
        #expect(endless.standardError == "pinmint: /dev/zero: the description is over 1048576 bytes; at most 1048576 are read\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("zero.png").path))
    }

    /// A description reached through a symbolic link is a file like any
    /// other: its relative pictures start from the folder the link is in
    /// (they were looked for in the current folder, as for a pipe).
    @Test func aLinkedDescriptionFindsItsPicturesBesideTheLink() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for name in ["real", "linked", "elsewhere"] {
            try manager.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data(#"{"preset": "pin", "options": {"picture": "shop.png"}}"#.utf8)
            .write(to: folder.appendingPathComponent("real/m.json"))
        try manager.copyItem(at: repositoryRoot.appendingPathComponent("Golden/markers/pictures/storefront.png"),
                             to: folder.appendingPathComponent("linked/shop.png"))
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("linked/m.json").path,
                                       withDestinationPath: folder.appendingPathComponent("real/m.json").path)
        let result = try runPinmintInShell("exec \"$0\" render ../linked/m.json -o out.png",
                                           in: folder.appendingPathComponent("elsewhere"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(manager.fileExists(atPath: folder.appendingPathComponent("elsewhere/out.png").path))
    }
}
