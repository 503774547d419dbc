import Foundation
import PinmintGeometry
@testable import PinmintMarkers
import PinmintPNG
import PinmintRaster
import Testing

/// Issue 25, the typed API: preset options as structs render the same bytes
/// as the command's strings; variants come back by name.
@Suite struct TypedAPITests {
    /// A small PNG for the picture options, written once per process.
    static let picturePath: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pinmint-typed-api-\(getpid()).png").path
        do {
            let canvas = try Canvas(width: 14, height: 10)
            var square = Path()
            square.addRect(Rect(x: 2, y: 2, width: 8, height: 6))
            try canvas.fill(square, paint: .solid(Color(red8: 200, green8: 40, blue8: 90)))
            try PNGEncoder.writeAtomically(try PNGEncoder.encode(canvas), to: path)
        } catch {
            preconditionFailure("cannot write the test picture: \(error)")
        }
        return path
    }()

    static var iconPath: String { repositoryRoot.appendingPathComponent("Tests/Browser/icons/cafe.svg").path }

    /// Each typed value beside the strings a person would type for it.
    static var cases: [(name: String, typed: any PresetOptions, strings: [String: String])] {
        var tag = PriceTagOptions(label: "5200萬")
        tag.badge = "成"; tag.fill = Color(red8: 0x35, green8: 0x98, blue8: 0xDB); tag.labelColor = .automatic
        tag.badgeColor = .white; tag.fontSize = 13.5; tag.height = 30; tag.pointer = .left
        tag.border = .color(try! Color(parsing: "rgba(255, 255, 255, 0.75)")); tag.borderWidth = 1.25; tag.shadow = true
        var plainTag = PriceTagOptions(label: ""); plainTag.pointer = .hidden; plainTag.border = .off
        var seedTag = PriceTagOptions(); seedTag.presetName = "seed-price-tag"; seedTag.fill = try! Color(parsing: "tomato")

        var callout = CalloutOptions(title: "Café Lumière", subtitle: "12 rue des Lilas")
        callout.picture = picturePath; callout.fill = try! Color(parsing: "rgba(77, 77, 77, 0.8)")
        callout.titleColor = .white; callout.subtitleColor = try! Color(parsing: "#AAAAAA")
        callout.shadowColor = .color(try! Color(parsing: "#FF000080")); callout.shadowRadius = 3
        callout.shadowX = -1; callout.shadowY = 2; callout.maxWidth = 240
        var fixedCallout = CalloutOptions(title: "Fixed"); fixedCallout.width = 150; fixedCallout.shadowColor = .off
        var seedCallout = CalloutOptions(); seedCallout.presetName = "seed-callout"

        var avatar = AvatarOptions(name: "张三", phone: "138 0013 8000")
        avatar.color = try! Color(parsing: "#8E44AD"); avatar.ring = .white; avatar.accent = try! Color(parsing: "#27AE60")
        avatar.labelFill = try! Color(parsing: "#2C3E50"); avatar.labelColor = .color(try! Color(parsing: "#F1C40F"))
        var pictured = AvatarOptions(name: "Ada"); pictured.picture = picturePath

        var pin = PinOptions(label: "7"); pin.fill = try! Color(parsing: "#16A085"); pin.color = .color(.white)
        pin.border = .off; pin.font = "Noto Sans"
        var iconPin = PinOptions(); iconPin.iconFile = iconPath; iconPin.dot = .off
        var pathPin = PinOptions(); pathPin.icon = "M4 4h16v16H4z"; pathPin.color = .automatic
        var dotPin = PinOptions(); dotPin.dot = .color(try! Color(parsing: "#FFCC00"))
        var picturePin = PinOptions(); picturePin.picture = picturePath; picturePin.border = .color(.black)

        return [
            ("price-tag", tag, ["label": "5200萬", "badge": "成", "fill": "#3598DB", "label-color": "auto",
                                "badge-color": "white", "font-size": "13.5", "height": "30", "pointer": "left",
                                "border": "rgba(255, 255, 255, 0.75)", "border-width": "1.25", "shadow": "yes"]),
            ("price-tag", plainTag, ["label": "", "pointer": "none", "border": "none"]),
            ("seed-price-tag", seedTag, ["fill": "tomato"]),
            ("callout", callout, ["title": "Café Lumière", "subtitle": "12 rue des Lilas", "picture": picturePath,
                                  "fill": "rgba(77, 77, 77, 0.8)", "title-color": "#fff", "subtitle-color": "#AAAAAA",
                                  "shadow-color": "#FF000080", "shadow-radius": "3", "shadow-x": "-1", "shadow-y": "2",
                                  "max-width": "240"]),
            ("callout", fixedCallout, ["title": "Fixed", "width": "150", "shadow-color": "none"]),
            ("seed-callout", seedCallout, [:]),
            ("avatar", avatar, ["name": "张三", "phone": "138 0013 8000", "color": "#8E44AD", "ring": "#FFFFFF",
                                "accent": "#27AE60", "label-fill": "#2C3E50", "label-color": "#F1C40F"]),
            ("avatar", pictured, ["name": "Ada", "picture": picturePath]),
            ("pin", pin, ["label": "7", "fill": "#16A085", "color": "#FFF", "border": "none", "font": "Noto Sans"]),
            ("pin", iconPin, ["icon-file": iconPath, "dot": "none"]),
            ("pin", pathPin, ["icon": "M4 4h16v16H4z", "color": "auto"]),
            ("pin", dotPin, ["dot": "#FFCC00"]),
            ("pin", picturePin, ["picture": picturePath, "border": "black"]),
        ]
    }

    @Test(arguments: 0..<cases.count)
    func typedOptionsRenderTheSameBytesAsTheirStrings(index: Int) throws {
        let (name, typed, strings) = Self.cases[index]
        #expect(typed.presetName == name)
        let renderer = try makeRenderer()
        let style = try #require(MarkerStyle.preset(named: name))
        for scale in [1.0, 2.0] {
            let fromTypes = try renderer.render(typed, scale: scale)
            let fromStrings = try renderer.render(style: style, options: strings, scale: scale)
            #expect(fromTypes.variantNames == fromStrings.map(\.variant))
            for (typedMarker, stringMarker) in zip(fromTypes.all, fromStrings) {
                #expect(try typedMarker.pngData() == stringMarker.pngData(), "\(name) \(typed.strings) @\(scale)x")
                #expect(typedMarker.metadata == stringMarker.metadata)
            }
            // The options matter: the preset's defaults draw something else.
            if !strings.isEmpty {
                let defaults = try renderer.render(style: style, scale: scale)
                #expect(try fromTypes.default.pngData() != defaults[0].pngData(), "\(name) \(typed.strings) @\(scale)x")
            }
        }
    }

    /// A struct with every field set names every option of its preset, so
    /// an option added to a preset without a field fails here.
    @Test func everyPresetOptionHasATypedField() throws {
        var tag = PriceTagOptions(label: "1"); tag.badge = "b"; tag.fill = .black; tag.labelColor = .automatic
        tag.badgeColor = .white; tag.fontSize = 12; tag.height = 28; tag.pointer = .center; tag.border = .off
        tag.borderWidth = 1; tag.shadow = false; tag.font = "Noto Sans"
        var callout = CalloutOptions(title: "t", subtitle: "s"); callout.picture = "p.png"; callout.fill = .black
        callout.titleColor = .white; callout.subtitleColor = .white; callout.shadowColor = .off; callout.shadowRadius = 1
        callout.shadowX = 0; callout.shadowY = 1; callout.width = 100; callout.maxWidth = 200; callout.font = "f"
        var avatar = AvatarOptions(name: "n", phone: "p"); avatar.picture = "p.png"; avatar.color = .black
        avatar.ring = .white; avatar.accent = .black; avatar.labelFill = .white; avatar.labelColor = .automatic; avatar.font = "f"
        var pin = PinOptions(label: "1"); pin.icon = "M0 0h1"; pin.iconFile = "i.svg"; pin.picture = "p.png"
        pin.fill = .black; pin.color = .automatic; pin.border = .off; pin.dot = .off; pin.font = "f"
        var seedTag = tag; seedTag.presetName = "seed-price-tag"
        var seedCallout = callout; seedCallout.presetName = "seed-callout"
        let all: [any PresetOptions] = [tag, callout, avatar, pin, seedTag, seedCallout]
        #expect(Set(all.map(\.presetName)) == Set(MarkerStyle.presetNames))
        for options in all {
            let style = try #require(MarkerStyle.preset(named: options.presetName))
            #expect(Set(options.strings.keys) == Set(style.options.map(\.name)), "\(options.presetName)")
        }
        #expect(PriceTagOptions().strings.isEmpty)
    }

    @Test(arguments: ["#3598DB", "#3598DB80", "rgba(77, 77, 77, 0.8)", "rgba(10, 20, 30, 0.75)", "transparent",
                      "rebeccapurple", "rgb(12.5, 100.25, 3)", "rgb(33% 66% 99% / 10%)"])
    func colourTextReadsBackToTheSameColour(text: String) throws {
        let color = try Color(parsing: text)
        #expect(try Color(parsing: ColorChoice.text(for: color)) == color, "\(ColorChoice.text(for: color))")
    }

    @Test func aTypedValueChangesWhatIsDrawn() throws {
        let renderer = try makeRenderer()
        var blue = PinOptions(label: "1"); blue.fill = try Color(parsing: "#2980B9")
        var green = blue; green.fill = try Color(parsing: "#27AE60")
        #expect(try renderer.render(blue, scale: 1).default.pngData() != renderer.render(green, scale: 1).default.pngData())
    }

    @Test func variantsComeBackByName() throws {
        let renderer = try makeRenderer()
        let avatar = try renderer.render(AvatarOptions(name: "Ada", phone: "0123"), scale: 2)
        #expect(avatar.variantNames == ["default", "selected"])
        let selected = try #require(avatar.selected)
        #expect(selected.variant == "selected" && avatar.default.variant == "default")
        #expect(avatar[variant: "selected"]?.metadata == selected.metadata)
        #expect(avatar[variant: "hover"] == nil)
        #expect(selected.metadata.width > avatar.default.metadata.width)

        let tag = try renderer.renderVariants(of: try #require(MarkerStyle.preset(named: "price-tag")),
                                              options: ["label": "42"], scale: 1)
        #expect(tag.variantNames == ["default"] && tag.selected == nil)
        #expect(tag.default.metadata.variant == "default")
    }

    @Test func anUnknownPresetNameIsAnError() throws {
        var options = PriceTagOptions(); options.presetName = "price-tga"
        #expect(throws: MarkerError.self) { try makeRenderer().render(options, scale: 1) }
    }

    @Test func anOutOfRangeTypedValueIsRefusedAsOnTheCommandLine() throws {
        var options = PriceTagOptions(label: "1"); options.fontSize = 99
        let error = #expect(throws: MarkerError.self) { try makeRenderer().render(options, scale: 1) }
        #expect(error?.description.contains("--font-size") == true)
        #expect(error?.description.contains("99") == true)
    }
}
