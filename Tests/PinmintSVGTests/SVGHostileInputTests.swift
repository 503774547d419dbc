import PinmintRaster
@testable import PinmintSVG
import Testing

/// SVG made to cost time or memory (issue 21): each is refused at once or
/// drawn in time proportional to its size.
struct SVGHostileInputTests {
    static func gradientChain(length: Int, shapes: Int, loop: Bool = false) -> String {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"10\" height=\"10\"><defs>"
        text += "<linearGradient id=\"g0\"\(loop ? " href=\"#g\(length - 1)\"" : "")><stop offset=\"0\" stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient>"
        for index in 1..<length { text += "<linearGradient id=\"g\(index)\" xlink:href=\"#g\(index - 1)\"/>" }
        text += "</defs>"
        for _ in 0..<shapes { text += "<rect width=\"10\" height=\"10\" fill=\"url(#g\(length - 1))\"/>" }
        return text + "</svg>"
    }

    /// 200 shapes on a 30,000-long chain took tens of seconds, each shape
    /// walking the chain again (and checking each link against the links before).
    @Test func aLongGradientChainIsRefused() {
        do {
            let svg = try SVGDocument(data: Array(Self.gradientChain(length: 30_000, shapes: 200).utf8), file: "chain.svg")
            _ = try svg.render(scale: 1)
            Issue.record("accepted")
        } catch {
            #expect(error.description == "chain.svg: line 1: <linearGradient href>: the href chain is longer than 64 gradients")
        }
    }

    /// A chain within the limit is resolved once for all its shapes.
    @Test func aChainWithinTheLimitPaintsEveryShape() throws {
        let svg = try SVGDocument(data: Array(Self.gradientChain(length: 64, shapes: 2_000).utf8))
        let image = try svg.render(scale: 1)
        #expect(image.pixel(x: 0, y: 5).red > 0.8 && image.pixel(x: 9, y: 5).blue > 0.8)
    }

    /// A chain that loops ends at the loop, with a warning, and draws.
    @Test func aLoopingChainIsWarnedAboutAndDrawn() throws {
        let svg = try SVGDocument(data: Array(Self.gradientChain(length: 3, shapes: 1, loop: true).utf8))
        #expect(svg.warnings.map(\.description) == ["line 1: <linearGradient href>: the href chain of gradient #g2 comes back to #g2; the loop is ignored"])
        let image = try svg.render(scale: 1)
        #expect(image.pixel(x: 0, y: 5).red > 0.8)
    }
}
