import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintRaster
import Testing

/// Descriptions built in Swift, not decoded: the renderer checks them
/// against the format's ranges and throws `MarkerError` instead of trapping.
@Suite struct HostileDescriptionTests {
    static func sized(_ kind: Part.Kind) -> Part { var part = Part(kind); part.width = 10; part.height = 10; return part }

    static func filledBox(_ change: (inout Box) -> Void) -> Part {
        var box = Box(); box.shape = .rect; box.fill = .color(.black)
        change(&box)
        return sized(.box(box))
    }

    /// Each case: the description and where the error must point.
    static let cases: [(String, MarkerDescription)] = [
        ("marker.width", { var part = sized(.spacer); part.width = .nan; return MarkerDescription(body: part) }()),
        ("marker.height", { var part = sized(.spacer); part.height = 1e300; return MarkerDescription(body: part) }()),
        ("marker.width", { var part = sized(.spacer); part.width = -10; return MarkerDescription(body: part) }()),
        ("marker.opacity", { var part = sized(.spacer); part.opacity = .nan; return MarkerDescription(body: part) }()),
        ("marker.gap", MarkerDescription(body: filledBox { $0.gap = .nan })),
        ("marker.padding.left", MarkerDescription(body: filledBox { $0.padding = Insets(top: 0, right: 0, bottom: 0, left: .infinity) })),
        ("marker.stroke.width", MarkerDescription(body: filledBox { var stroke = StrokeSpec(color: .black); stroke.width = .nan; $0.stroke = stroke })),
        ("marker.shape.point", MarkerDescription(body: filledBox { $0.shape = .teardrop(point: .nan) })),
        ("marker.shape.radius", MarkerDescription(body: filledBox { $0.shape = .bubble(radius: .infinity, arrow: nil) })),
        ("marker.shape.arrow.position", MarkerDescription(body: filledBox {
            var arrow = Shape.Arrow(); arrow.position = .nan; $0.shape = .bubble(radius: 4, arrow: arrow)
        })),
        ("marker.shadow.radius", MarkerDescription(body: filledBox { $0.shadow = Shadow(blurRadius: 1e300) })),
        ("marker.fill.stops", MarkerDescription(body: filledBox { $0.fill = .linear(angle: 0, stops: []) })),
        ("marker.children[1].fontSize", {
            var text = TextPart(text: "hi"); text.fontSize = .nan
            var box = Box(); box.children = [Part(.spacer), Part(.text(text))]
            return MarkerDescription(body: Part(.box(box)))
        }()),
        ("marker.maxLines", { var text = TextPart(text: "hi"); text.maxLines = -5; return MarkerDescription(body: Part(.text(text))) }()),
        ("marker.anchor[0]", MarkerDescription(body: sized(.spacer), anchor: .point(Point(.nan, 0)))),
        ("marker.font", { var text = TextPart(text: "hi"); text.families = []; return MarkerDescription(body: Part(.text(text))) }()),
    ]

    @Test(arguments: cases)
    func aNumberOutOfTheFormatsRangeThrows(_ place: String, _ description: MarkerDescription) throws {
        let renderer = try MarkerRenderer()
        do {
            _ = try renderer.render(description, scale: 1)
            Issue.record("rendered")
        } catch {
            #expect(error.path == place, "\(error)")
        }
    }

    @Test func partsNestedTooDeepThrow() throws {
        var part = Part(.spacer)
        for _ in 0..<20 { var box = Box(); box.children = [part]; part = Part(.box(box)) }
        #expect(throws: MarkerError.self) { try MarkerRenderer().render(MarkerDescription(body: part), scale: 1) }
    }

    @Test func tooManyPartsThrow() throws {
        var box = Box(); box.layout = .row
        box.children = [Part](repeating: Self.sized(.spacer), count: 300)
        #expect(throws: MarkerError.self) { try MarkerRenderer().render(MarkerDescription(body: Part(.box(box))), scale: 1) }
    }

    @Test func aDescriptionWithinRangeStillRenders() throws {
        let marker = try MarkerRenderer().render(MarkerDescription(body: Self.filledBox { _ in }), scale: 2)
        #expect(marker.metadata.width == 20)
    }
}
