import Foundation
import PinmintPNG
import Testing

/// `pinmint render PRESET|FILE.json` and `pinmint styles`: files, metadata,
/// exit codes and messages are contracts.
struct MarkerCommandTests {
    @Test func presetAtThreeScalesWithMetadata() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("tag.png").path
        let meta = folder.appendingPathComponent("tag.json").path
        let result = try runPinmint(["render", "price-tag", "--label", "5200萬", "--badge", "成", "--fill", "#3598DB",
                                     "--scale", "1,2,3", "-o", output, "--meta", meta])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            == ["tag.json", "tag.png", "tag@2x.png", "tag@3x.png"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: meta))) as? [[String: Any]])
        #expect(list.map { $0["file"] as? String } == ["tag.png", "tag@2x.png", "tag@3x.png"])
        for (index, entry) in list.enumerated() {
            let scale = index + 1
            let png = try PNGDecoder.decode(contentsOfFile: folder.appendingPathComponent(entry["file"] as! String).path)
            #expect(entry["width"] as? Int == png.width && entry["height"] as? Int == png.height)
            #expect(entry["pixelRatio"] as? Int == scale && entry["id"] as? String == "tag")
            let anchor = try #require(entry["anchor"] as? [String: Double])
            #expect(anchor["y"] == Double(png.height) && anchor["x"] == Double(png.width / 2))
            for key in ["hitBoxes", "contentBox", "leaflet", "maplibre", "mapkit"] { #expect(entry[key] != nil, "\(key)") }
        }
    }

    @Test func avatarWritesBothStates() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runPinmint(["render", "avatar", "--name", "张三", "-o", folder.appendingPathComponent("a.png").path,
                                     "--scale", "2", "--meta", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a-selected.png", "a.png"])
        let list = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        #expect(list.map { $0["id"] as? String } == ["a", "a-selected"])
        #expect(list.map { $0["variant"] as? String } == ["default", "selected"])
    }

    @Test func standardOutputTakesOneImage() throws {
        let one = try runPinmint(["render", "pin", "--label", "3", "-o", "-"])
        #expect(one.status == 0 && one.standardOutput.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let many = try runPinmint(["render", "pin", "--scale", "1,2", "-o", "-"])
        #expect(many.status == 2 && many.standardError.contains("-o - writes one image"))
    }

    @Test func descriptionFileWithItsOwnOptions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = repositoryRoot.appendingPathComponent("Golden/markers/custom-rating.json").path
        let output = folder.appendingPathComponent("r.png").path
        let result = try runPinmint(["render", file, "--score", "3.9", "-o", output, "--meta", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        let meta = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(meta["file"] as? String == "r.png")
        // The arrow is on the left: the anchor is at the left edge of the body.
        let anchor = try #require(meta["anchor"] as? [String: Double])
        let boxes = try #require(meta["hitBoxes"] as? [[String: Int]])
        #expect(anchor["x"]! < Double(boxes[0]["x"]!))
    }

    @Test(arguments: [
        (["render", "price-tag", "--lable", "x"], "unknown option '--lable'"),
        (["render", "price-tag", "--fill", "blurple"], "--fill: colour 'blurple'"),
        (["render", "price-tag", "--font-size", "99"], "--font-size: 99 is out of range (6...48)"),
        (["render", "price-tog"], "'price-tog' is not a preset (did you mean 'price-tag'?)"),
        (["render", "callout", "--picture", "/no/such/photo.png"], "preset callout: marker.children[0].file: no such picture file: /no/such/photo.png"),
        (["render", "callout", "--picture", "Golden/markers/pictures/coffee.svg"], "not a usable PNG picture"),
        (["render", "price-tag", "--label", String(repeating: "9", count: 501)], "--label: is 501 characters long; at most 500"),
        (["render", "price-tag", "--scale", "9"], "--scale 9 is out of range"),
        (["render", "Golden/markers/no-such.json"], "Golden/markers/no-such.json: no such file"),
        // An upper-case extension was "not a preset" (and ICON.SVG "not valid JSON").
        (["render", "Golden/markers/no-such.JSON"], "Golden/markers/no-such.JSON: no such file"),
        (["render", "price-tag", "--shadow", "--no-shadow"], "give either --shadow or --no-shadow, not both"),
        (["render", "price-tag", "--height", "1e400"], "--height: inf is out of range (16...200)"),
        (["render", "price-tag", "--height", "nan"], "--height: nan is out of range (16...200)"),
    ])
    func badInputWritesNothing(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = pinmintBinary
        process.currentDirectoryURL = repositoryRoot
        process.arguments = arguments + ["-o", folder.appendingPathComponent("out.png").path]
        let result = try runToEnd(process)
        let text = result.standardError
        #expect(result.status == 2)
        #expect(text.contains(message), "\(text)")
        #expect(text.split(separator: "\n").count == 1, "one line: \(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func markersOverTheSizeLimitsWriteNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.json")
        try ##"{"marker": {"type": "box", "fill": "#f00", "width": 2048, "height": 2048}}"##.write(to: file, atomically: true, encoding: .utf8)
        let result = try runPinmint(["render", file.path, "--scale", "1,8", "-o", folder.appendingPathComponent("big.png").path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("big.json: the marker would be 16384x16384 pixels at scale 8"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.json"], "not even the @1x image")
    }

    /// A call that writes several files and fails on one left the others
    /// (`a.png` when `a@2x.png` was a folder, or the metadata's folder was missing).
    @Test(arguments: [
        (["price-tag", "--scale", "1,2"], "a@2x.png/", "a@2x.png: is a directory"),
        (["avatar", "--name", "x"], "a-selected.png/", "a-selected.png: is a directory"),
        (["price-tag", "--meta", "FOLDER/no/m.json"], nil, "m.json: cannot write: No such file or directory"),
        (["price-tag", "--meta", "FOLDER/blocked"], "blocked/", "--meta 'FOLDER/blocked' is a directory"),
        (["price-tag", "--meta", ""], nil, "--meta '' is not a file name"),
    ] as [([String], String?, String)])
    func aFailedOutputLeavesNoneOfTheCallsFiles(arguments: [String], blocker: String?, message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var before: [String] = []
        if let blocker {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(blocker), withIntermediateDirectories: true)
            before.append(String(blocker.dropLast()))
        }
        // An older a.png must stay as it was, not be replaced by half the call.
        try Data("old".utf8).write(to: folder.appendingPathComponent("a.png"))
        before.append("a.png")
        let resolved = arguments.map { $0.replacingOccurrences(of: "FOLDER", with: folder.path) }
        let result = try runPinmint(["render"] + resolved + ["-o", folder.appendingPathComponent("a.png").path])
        #expect(result.status == 2, "\(arguments)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(message.replacingOccurrences(of: "FOLDER", with: folder.path)), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before.sorted(), "no temporaries either")
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.png")) == Data("old".utf8))
    }

    /// `-o x.png --meta x.png` replaced the PNG with the JSON and exited 0;
    /// `-o - --meta -` wrote the PNG, then the JSON, to standard output.
    @Test(arguments: [
        (["price-tag", "-o", "x.png", "--meta", "x.png"], "'x.png' would be written twice (by -o and --meta)"),
        (["price-tag", "-o", "x.png", "--meta", "./sub/../x.png"], "would be written twice"),
        (["price-tag", "-o", "x.png", "--scale", "1,2", "--meta", "x@2x.png"], "'x@2x.png' would be written twice"),
        (["avatar", "--name", "x", "-o", "x.png", "--meta", "x-selected.png"], "'x-selected.png' would be written twice"),
        (["marker.json", "-o", "marker.json"], "-o 'marker.json' is the input file"),
        (["marker.json", "-o", "out.png", "--meta", "marker.json"], "--meta 'marker.json' is the input file"),
        (["price-tag", "-o", "-", "--meta", "-"], "-o - and --meta - cannot both go to standard output"),
        (["callout", "--picture", "pic.png", "-o", "pic.png"], "-o 'pic.png' is a picture or icon the marker draws"),
        (["callout", "--picture", "pic.png", "-o", "out.png", "--scale", "1,2", "--meta", "./pic.png"], "--meta './pic.png' is a picture or icon the marker draws"),
    ])
    func outputsThatWouldOverwriteEachOtherAreRefused(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let description = repositoryRoot.appendingPathComponent("Golden/markers/custom-rating.json")
        try FileManager.default.copyItem(at: description, to: folder.appendingPathComponent("marker.json"))
        let picture = repositoryRoot.appendingPathComponent("Golden/markers/pin-short@2x.png")
        try FileManager.default.copyItem(at: picture, to: folder.appendingPathComponent("pic.png"))
        let process = Process()
        process.executableURL = pinmintBinary
        process.currentDirectoryURL = folder
        process.arguments = ["render"] + arguments
        let result = try runToEnd(process)
        let written = result.standardOutput, text = result.standardError
        #expect(result.status == 2, "\(arguments)")
        #expect(text.contains(message) && text.split(separator: "\n").count == 1, "\(text)")
        #expect(written.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["marker.json", "pic.png", "sub"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("marker.json")) == Data(contentsOf: description))
        #expect(try Data(contentsOf: folder.appendingPathComponent("pic.png")) == Data(contentsOf: picture))
    }

    /// `render marker.json -o pic.png` replaced the picture the description
    /// draws with the rendered marker (only a `--picture` flag was checked).
    /// The description sits in `sub/` and names its files relative to itself.
    @Test(arguments: [
        (#"{"preset": "pin", "options": {"picture": "../pic.png"}}"#, "pic.png", "-o"),
        (#"{"preset": "pin", "options": {"icon-file": "../icon.svg"}}"#, "icon.svg", "-o"),
        (#"{"marker": {"type": "picture", "file": "../pic.png", "width": 20, "height": 20}}"#, "pic.png", "-o"),
        (#"{"marker": {"type": "box", "shape": {"type": "circle"}, "fill": {"type": "picture", "file": "../pic.png"},"#
            + #" "width": 20, "height": 20}}"#, "pic.png", "-o"),
        (#"{"marker": {"type": "icon", "file": "../icon.svg"}}"#, "sub/../icon.svg", "-o"),
        (#"{"preset": "pin", "options": {"picture": "../pic.png"}}"#, "pic.png", "--meta"),
        (#"{"preset": "pin", "options": {"picture": "../pic.png"}}"#, "link.png", "-o"),
    ])
    func anOutputOverAPictureOrIconOfTheDescriptionIsRefused(description: String, output: String, option: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try Data(description.utf8).write(to: sub.appendingPathComponent("m.json"))
        let picture = repositoryRoot.appendingPathComponent("Golden/markers/pictures/portrait.png")
        let icon = repositoryRoot.appendingPathComponent("Golden/markers/pictures/coffee.svg")
        try FileManager.default.copyItem(at: picture, to: folder.appendingPathComponent("pic.png"))
        try FileManager.default.copyItem(at: icon, to: folder.appendingPathComponent("icon.svg"))
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.png"),
                                                   withDestinationURL: folder.appendingPathComponent("pic.png"))
        let target = folder.path + "/" + output
        let outputs = option == "-o" ? ["-o", target] : ["-o", folder.path + "/out.png", "--meta", target]
        let result = try runPinmint(["render", sub.appendingPathComponent("m.json").path] + outputs)
        #expect(result.status == 2, "\(description)")
        #expect(result.standardError == "pinmint: render: \(option) '\(target)' is a picture or icon the marker draws; "
                + "write the output elsewhere\n",
                "\(result.standardError)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("pic.png")) == Data(contentsOf: picture))
        #expect(try Data(contentsOf: folder.appendingPathComponent("icon.svg")) == Data(contentsOf: icon))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["icon.svg", "link.png", "pic.png", "sub"])
    }

    /// `-o ''` wrote `./.png`, `-o out/` wrote `out.png`, `-o foo.jpg` wrote `foo.jpg.png`:
    /// one image goes exactly where -o says, and derived names keep OUT's extension.
    /// Since issue 23 a name without .png (`foo.jpg`, `tag`) is refused: only PNG is written.
    @Test(arguments: [
        (["-o", "foo.jpg"], []),
        (["-o", "tag", "--scale", "1,2"], []),
        (["-o", "TAG.PNG", "--scale", "2,1"], ["TAG.PNG", "TAG@2x.PNG"]),
        (["-o", "sub/tag.png", "--scale", "1.5"], ["sub/tag.png"]),
        (["-o", "sub/tag.png", "--scale", "1,1.5"], ["sub/tag.png", "sub/tag@1.5x.png"]),
        (["-o", "", "--scale", "1"], []),
        (["-o", "sub/", "--scale", "1"], []),
        (["-o", "sub", "--scale", "1"], []),
    ])
    func outputNamesAreWrittenAsGiven(arguments: [String], expected: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = pinmintBinary
        process.currentDirectoryURL = folder
        process.arguments = ["render", "price-tag"] + arguments
        let result = try runToEnd(process)
        let text = result.standardError
        #expect(result.status == (expected.isEmpty ? 2 : 0), "\(arguments): \(text)")
        if expected.isEmpty { #expect(text.split(separator: "\n").count == 1 && text.contains("-o '"), "\(text)") }
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0 != "sub" }
        #expect(files.sorted() == expected.sorted(), "\(arguments)")
    }

    /// `--scale 0x2` was read as 2 (every "x" removed, then hexadecimal allowed).
    @Test(arguments: ["0x2", "2xx", "0x1p1", "1e0", " ", "2,", "inf"])
    func scalesArePlainDecimals(_ scale: String) throws {
        let result = try runPinmint(["render", "price-tag", "-o", "-", "--scale", scale])
        #expect(result.status == 2, "\(scale)")
        #expect(result.standardError.contains("--scale") && result.standardError.contains("is not a number"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(try runPinmint(["render", "price-tag", "-o", "-", "--scale", "2x"]).status == 0)
        // Sprite ratios likewise (every "x" was deleted: "0x2" was 2, "1.5x" … passed).
        let seeds = repositoryRoot.appendingPathComponent("docs/demo/seed-markers.json").path
        let sprite = try runPinmint(["sprite", seeds, "-o", "/tmp/never-written/s", "--ratio", scale])
        #expect(sprite.status == 2 && sprite.standardError.contains("is not a number"), "\(sprite.standardError)")
    }

    @Test func stylesListsThePresetsAndTheirOptions() throws {
        let list = try runPinmint(["styles"])
        #expect(list.status == 0)
        let text = String(decoding: list.standardOutput, as: UTF8.self)
        for name in ["price-tag:", "callout:", "avatar:", "pin:", "--label", "--badge", "--title", "--picture"] {
            #expect(text.contains(name), "\(name)")
        }
        let json = try runPinmint(["styles", "--json"])
        let styles = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        #expect(styles.map { $0["name"] as? String } == ["price-tag", "callout", "avatar", "pin", "seed-price-tag", "seed-callout"])
        // --show prints a description that renders as a style file of its own.
        let shown = try runPinmint(["styles", "price-tag", "--show"])
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("my-tag.json")
        try shown.standardOutput.write(to: copy)
        let fromCopy = try runPinmint(["render", copy.path, "--label", "1萬", "-o", folder.appendingPathComponent("a.png").path])
        let fromPreset = try runPinmint(["render", "price-tag", "--label", "1萬", "-o", folder.appendingPathComponent("b.png").path])
        #expect(fromCopy.status == 0 && fromPreset.status == 0, "\(fromCopy.standardError)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.png")) == Data(contentsOf: folder.appendingPathComponent("b.png")))
    }

    @Test func presetHelpListsItsOptions() throws {
        let result = try runPinmint(["render", "callout", "--help"])
        let text = String(decoding: result.standardOutput, as: UTF8.self)
        #expect(result.status == 0 && text.contains("--title") && text.contains("--shadow-radius"))
    }
}

/// Text given on the command line is UTF-8 or refused (Swift would hand
/// the label over with U+FFFD in place of the bad byte, and draw that).
@Suite struct RenderArgumentBytesTests {
    @Test func aLabelThatIsNotUTF8IsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("tag.png").path
        let result = try runPinmintInShell("exec \"$0\" render price-tag --label \"$(printf 'a\\377b')\" -o \"$1\"",
                                           arguments: [out])
        let message = result.standardError
        #expect(result.status == 2)
        #expect(message.hasPrefix("pinmint: a\\xFFb: the argument is not valid UTF-8"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
