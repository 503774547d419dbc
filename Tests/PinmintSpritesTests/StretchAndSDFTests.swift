import Foundation
import PinmintMarkers
import PinmintSprites
import Testing

struct StretchTests {
    /// The price tag drawn without a label is the stretchable sprite: its
    /// content is the label area (the layout's, never empty, though the empty
    /// label's own box is), and its stretch runs are flat body columns and
    /// rows, clear of the corners and the pointer.
    @Test(arguments: [1.0, 2.0, 3.0])
    func priceTagWithoutLabel(_ scale: Double) throws {
        let renderer = try MarkerRenderer()
        let marker = try renderer.render(style: MarkerStyle.preset(named: "price-tag")!, options: ["label": ""], scale: scale)[0]
        let image = SpriteImage(marker: marker, id: "tag")
        let metadata = image.metadata
        let box = try #require(marker.metadata.contentBox)
        #expect(box.width == 0)
        let stretch = try #require(marker.metadata.stretch)
        #expect(metadata.content == stretch.content && stretch.content[2] > stretch.content[0])
        let stretchX = try #require(metadata.stretchX)
        #expect(!stretchX.isEmpty)
        let body = marker.metadata.hitBoxes[0], pointer = marker.metadata.hitBoxes[1]
        let corner = Int((3 * scale).rounded(.up))
        for run in stretchX {
            // Inside the body, clear of the rounded corners, the pointer and the badge.
            #expect(run[0] >= body.x + corner && run[1] <= body.x + body.width - corner, "\(run)")
            #expect(run[1] <= pointer.x || run[0] >= pointer.x + pointer.width, "\(run) crosses the pointer \(pointer)")
            // Every column of a run is the same pixels as its neighbour.
            for x in run[0]..<(run[1] - 1) {
                for y in 0..<image.height {
                    let a = (y * image.width + x) * 4, b = a + 4
                    #expect(image.pixels[a..<(a + 4)] == image.pixels[b..<(b + 4)], "column \(x) differs at row \(y)")
                }
            }
        }
        for run in metadata.stretchY ?? [] {
            #expect(run[0] >= body.y + corner && run[1] <= body.y + body.height - corner, "\(run)")
            for y in run[0]..<(run[1] - 1) {
                let a = y * image.width * 4, b = a + image.width * 4
                #expect(image.pixels[a..<b] == image.pixels[b..<(b + image.width * 4)], "row \(y)")
            }
        }
        #expect(metadata.problem(width: image.width, height: image.height) == nil)
    }

    @Test func aLabelledTagIsNotStretchableUnlessAsked() throws {
        let renderer = try MarkerRenderer()
        let marker = try renderer.render(style: MarkerStyle.preset(named: "price-tag")!, options: ["label": "5200萬"], scale: 2)[0]
        #expect(SpriteImage(marker: marker, id: "t").metadata == SpriteMetadata())
        let forced = SpriteImage(marker: marker, id: "t", stretchable: true).metadata
        #expect(forced.content != nil && forced.stretchX != nil)
    }
}

struct SignedDistanceFieldTests {
    /// A disc of radius `radius` pixels centred in a square, anti-aliased by 4x4 supersampling.
    static func disc(size: Int, radius: Double) -> SpriteImage {
        var pixels = [UInt8](repeating: 0, count: size * size * 4)
        let centre = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                var inside = 0
                for sy in 0..<4 { for sx in 0..<4 {
                    let dx = Double(x) + (Double(sx) + 0.5) / 4 - centre, dy = Double(y) + (Double(sy) + 0.5) / 4 - centre
                    if dx * dx + dy * dy <= radius * radius { inside += 1 }
                } }
                pixels[(y * size + x) * 4 + 3] = UInt8((Double(inside) / 16 * 255).rounded())
            }
        }
        return SpriteImage(id: "disc", width: size, height: size, pixels: pixels, pixelRatio: 1)
    }

    @Test func mapboxConventions() {
        let image = Self.disc(size: 40, radius: 12)
        let field = SignedDistanceField.make(from: image)
        #expect(field.width == 46 && field.height == 46 && field.metadata.sdf)
        let centre = 23.0
        func alpha(_ x: Int, _ y: Int) -> Int { Int(field.pixels[(y * field.width + x) * 4 + 3]) }
        // Along a row through the centre: the distance to the circle predicts the value. As in
        // TinySDF, distances run from pixel centres to the nearest centre across the edge, up to
        // half a pixel more than to the edge itself (less where anti-aliased pixels place the edge),
        // on both sides alike, so the outline stays where it was.
        func value(_ distance: Double) -> Double { max(0, min(255, 255 - 255 * (distance / 8 + 0.25))) }
        for x in 0..<field.width {
            let distance = abs(Double(x) + 0.5 - centre) - 12      // > 0 outside
            let exact = value(distance), biased = value(distance + (distance > 0 ? 0.5 : -0.5))
            let measured = Double(alpha(x, 23))
            #expect(measured >= min(exact, biased) - 8 && measured <= max(exact, biased) + 8, "x \(x): \(measured) vs \(exact)...\(biased)")
            if distance < -0.75 { #expect(alpha(x, 23) >= 192, "inside at x \(x)") }
            if distance > 0.75 { #expect(alpha(x, 23) < 192, "outside at x \(x)") }
        }
        // Colour channels are zero: maps read alpha only.
        #expect(stride(from: 0, to: field.pixels.count, by: 4).allSatisfy { field.pixels[$0] == 0 && field.pixels[$0 + 1] == 0 })
    }

    @Test func radiusAndBufferFollowTheRatio() {
        var image = Self.disc(size: 20, radius: 6)
        image.pixelRatio = 2
        image.metadata.content = [5, 5, 15, 15]
        let field = SignedDistanceField.make(from: image)
        #expect(field.width == 32 && field.height == 32)
        #expect(field.metadata.content == [11, 11, 21, 21])
    }

    /// The Felzenszwalb–Huttenlocher transform against brute force on a hard-edged shape.
    @Test func fastTransformMatchesBruteForce() {
        let width = 17, height = 13
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let inside: Set<Int> = [3 * width + 4, 3 * width + 5, 4 * width + 5, 9 * width + 12, 10 * width + 12, 10 * width + 13]
        for cell in inside { pixels[cell * 4 + 3] = 255 }
        let radius = 8.0
        let fast = SignedDistanceField.field(alpha: pixels, width: width, height: height, buffer: 0, radius: radius)
        for y in 0..<height {
            for x in 0..<width {
                // Distance to the nearest pixel of the other kind (as the transform measures it, centre to centre).
                let here = inside.contains(y * width + x)
                var nearest = Double.infinity
                for other in 0..<(width * height) where inside.contains(other) != here {
                    let dx = Double(other % width - x), dy = Double(other / width - y)
                    nearest = min(nearest, (dx * dx + dy * dy).squareRoot())
                }
                let distance = here ? -nearest : nearest
                let expected = UInt8(max(0, min(255, (255 - 255 * (distance / radius + 0.25)).rounded())))
                #expect(fast[y * width + x] == expected, "(\(x), \(y))")
            }
        }
    }
}
