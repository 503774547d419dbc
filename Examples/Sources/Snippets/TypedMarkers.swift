// docs/markers.md, "Typed options, variants by name, metadata as Codable".
import Foundation
import PinmintMarkers
import PinmintRaster

func renderAnAvatarWithTypedOptions() throws -> (MarkerMetadata, Int) {
    var options = AvatarOptions(name: "张三", phone: "138 0013 8000")
    options.accent = try Color(parsing: "#27AE60")
    options.labelColor = .automatic
    let avatar = try MarkerRenderer().render(options, scale: 2)
    let normal = avatar.default, selected = avatar.selected!     // or avatar[variant: "selected"]
    let json = try MarkerMetadata.encoder.encode(selected.metadata)
    let metadata = try JSONDecoder().decode(MarkerMetadata.self, from: json)
    return (metadata, normal.metadata.width)
}
