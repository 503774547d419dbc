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
        (["render", "callout", "--picture", "/no/such/photo.png"], "/no/such/photo.png: no such picture file"),
        (["render", "callout", "--picture", "Golden/markers/pictures/coffee.svg"], "not a usable PNG picture"),
        (["render", "price-tag", "--label", String(repeating: "9", count: 501)], "--label: is 501 characters long; at most 500"),
        (["render", "price-tag", "--scale", "9"], "--scale 9 is out of range"),
        (["render", "Golden/markers/no-such.json"], "Golden/markers/no-such.json: no such file"),
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
        let error = Pipe()
        process.standardError = error
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
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

    @Test func stylesListsThePresetsAndTheirOptions() throws {
        let list = try runPinmint(["styles"])
        #expect(list.status == 0)
        let text = String(decoding: list.standardOutput, as: UTF8.self)
        for name in ["price-tag:", "callout:", "avatar:", "pin:", "--label", "--badge", "--title", "--picture"] {
            #expect(text.contains(name), "\(name)")
        }
        let json = try runPinmint(["styles", "--json"])
        let styles = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        #expect(styles.map { $0["name"] as? String } == ["price-tag", "callout", "avatar", "pin"])
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
