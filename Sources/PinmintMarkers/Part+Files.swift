/// The files a marker reads when it is drawn, so that a command can refuse
/// an output that would replace one of them (`pinmint render marker.json
/// -o pic.png` where the description draws `pic.png`).

extension Part {
    /// The files this part and its children read: PNG pictures (a picture
    /// part, or a box filled with a picture) and SVG icons, as the renderer
    /// opens them (already resolved against the description's folder), in
    /// tree order, each once. Placeholders and path-data icons read nothing.
    public var inputFiles: [String] {
        var files: [String] = []
        collectInputFiles(into: &files)
        return files
    }

    private func collectInputFiles(into files: inout [String]) {
        func add(_ file: String) { if !files.contains(file) { files.append(file) } }
        switch kind {
        case .box(let box):
            if case .picture(.file(let file), _)? = box.fill { add(file) }
            for child in box.children { child.collectInputFiles(into: &files) }
        case .picture(let picture):
            if case .file(let file) = picture.source { add(file) }
        case .icon(let icon):
            if case .file(let file) = icon.source { add(file) }
        case .text, .spacer:
            break
        }
    }
}

extension MarkerDescription {
    /// The pictures and SVG icons drawing this marker reads (see `Part.inputFiles`).
    public var inputFiles: [String] { body.inputFiles }
}
