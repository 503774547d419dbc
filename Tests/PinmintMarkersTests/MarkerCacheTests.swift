import Foundation
import PinmintGeometry
import PinmintMarkers
import PinmintRaster
import Testing

/// A renderer keeps text layouts, background outlines and the coverage
/// masks of plain colour fills from one marker to the next: what it draws
/// from its caches must be what a fresh renderer draws.
@Suite struct MarkerCacheTests {
    /// The 16-bit pixels and the metadata of `description` at `scale`.
    func drawn(_ description: MarkerDescription, by renderer: MarkerRenderer, scale: Double) throws -> ([UInt16], MarkerMetadata) {
        let marker = try renderer.render(description, scale: scale)
        return (marker.canvas.makeImage().pixels, marker.metadata)
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func cachedRendersMatchFreshOnes(scale: Double) throws {
        var descriptions: [MarkerDescription] = []
        for name in MarkerStyle.presetNames {
            descriptions += try #require(MarkerStyle.preset(named: name)).resolve(options: [:])
        }
        let priceTag = try #require(MarkerStyle.preset(named: "price-tag"))
        for label in ["5200萬", "5201萬", "9萬", "12,345,678萬", "5200萬"] {
            descriptions += try priceTag.resolve(options: ["label": label, "badge": "成"])
        }
        descriptions += try priceTag.resolve(options: ["label": "5200萬", "shadow": "true"])
        descriptions += try priceTag.resolve(options: ["label": "5200萬", "border": "#FF0000"])
        let shared = try makeRenderer()
        for pass in 0..<2 {
            for (index, description) in descriptions.enumerated() {
                let cached = try drawn(description, by: shared, scale: scale)
                let fresh = try drawn(description, by: try makeRenderer(), scale: scale)
                #expect(cached.0 == fresh.0, "pass \(pass), description \(index): pixels differ")
                #expect(cached.1 == fresh.1, "pass \(pass), description \(index): metadata differs")
            }
        }
    }

    /// Text layouts are kept by the text's bytes: é as one scalar and as e
    /// with a combining accent are equal strings, but they are set from
    /// different scalars and must not share a layout.
    @Test func canonicallyEquivalentTextsAreSetApart() throws {
        let priceTag = try #require(MarkerStyle.preset(named: "price-tag"))
        let composed = try priceTag.resolve(options: ["label": "caf\u{E9}"])[0]
        let decomposed = try priceTag.resolve(options: ["label": "cafe\u{301}"])[0]
        let shared = try makeRenderer()
        _ = try shared.render(composed, scale: 2)
        let cached = try drawn(decomposed, by: shared, scale: 2)
        let fresh = try drawn(decomposed, by: try makeRenderer(), scale: 2)
        #expect(cached.0 == fresh.0)
        #expect(cached.1 == fresh.1)
    }
}
