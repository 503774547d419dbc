// docs/sprites.md, "From Swift": a sprite sheet packed and written; a batch
// of price tags rendered from a CSV file.
import PinmintMarkers
import PinmintSprites

func packSpriteAndRenderBatch() throws {
    let inputs = try SpriteInputs(paths: ["icons", "markers.json"])
    let images = try inputs.render(ratio: 2, jobs: 2)
    let sheet = try SpriteSheet.pack(images, spacing: 2, unique: true)
    try AtomicFile.write(try sheet.pngData(), to: "out/sprite@2x.png")
    try AtomicFile.write(Array(sheet.indexJSON().utf8), to: "out/sprite@2x.json")

    let batch = try BatchConfiguration(file: MarkerFile(style: MarkerStyle.preset(named: "price-tag")!),
                                       settings: ["label": FieldTemplate("{price}萬", input: "label")],
                                       idTemplate: nil, scales: [1, 2], outputFolder: "out/tags", jobs: 2)
    let summary = try BatchRenderer(configuration: batch).run(try DataRowReader(path: "listings.csv", format: nil))
    _ = summary
}
