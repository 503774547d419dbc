import Foundation

/// The built-in styles, written in the description format itself (see
/// docs/markers.md): `pinmint styles --show NAME` prints one to copy and edit.
/// Measurements follow ../shared/MARKERS.md, taken from the seed posts.
extension MarkerStyle {
    /// Preset names in the order `pinmint styles` lists them.
    /// The `seed-` presets are the seeds' own looks, sample text included
    /// (`make demo` draws them); the others draw only what they are given.
    public static let presetNames = ["price-tag", "callout", "avatar", "pin", "seed-price-tag", "seed-callout"]

    /// The built-in style called `name`, or nil.
    public static func preset(named name: String) -> MarkerStyle? { parsedPresets[name] }

    /// Every preset read once (a global `let`: initialised on first use, thread-safe).
    private static let parsedPresets: [String: MarkerStyle] = {
        var styles: [String: MarkerStyle] = [:]
        for (name, text) in presetSources {
            do {
                styles[name] = try MarkerStyle(json: Data(text.utf8), name: name, input: "preset \(name)", baseDirectory: "")
            } catch {
                preconditionFailure("built-in preset \(name) does not parse: \(error)")
            }
        }
        return styles
    }()

    /// The built-in styles in `presetNames` order, each parsed once on first use.
    public static var presets: [MarkerStyle] { presetNames.compactMap { preset(named: $0) } }

    static let presetSources: [String: String] = [
        "price-tag": priceTag, "callout": callout, "avatar": avatar, "pin": pin,
        "seed-price-tag": seedPriceTag, "seed-callout": seedCallout,
    ]

    // Seed 000's shape without its demo content: body 28 high, at least 40
    // wide (room for a stretch run each side of the pointer), corner radius 3,
    // a 20 x 10 pointer under it, anchor at the tip; a badge only when asked
    // for. Drawn without text it is the stretchable sprite MapLibre fits text
    // into (see MarkerStretch).
    static let priceTag = #"""
    {
      "name": "price-tag",
      "description": "A price label on a rounded tag with a pointer, and a round badge when asked for (seed 000; seed-price-tag has the seed's badge and text).",
      "options": [
        {"name": "label", "type": "text", "default": "", "help": "the price or text on the tag; empty for the stretchable tag MapLibre fits text into"},
        {"name": "badge", "type": "text", "default": "", "help": "a glyph in a white circle at the left (the seed's 成); empty or none for no badge"},
        {"name": "fill", "type": "color", "default": "#3598DB", "help": "the tag's colour"},
        {"name": "label-color", "type": "color", "default": "auto", "help": "the label's colour; auto picks black or white for contrast"},
        {"name": "badge-color", "type": "color", "default": "#FFFFFF", "help": "the badge circle's colour"},
        {"name": "font-size", "type": "number", "range": [6, 48], "default": 12, "help": "the label's size in points"},
        {"name": "height", "type": "number", "range": [16, 200], "default": 28, "help": "the tag's height in points, pointer excluded"},
        {"name": "pointer", "type": "choice", "choices": ["center", "left", "right", "none"], "default": "center", "help": "where the pointer sits under the tag"},
        {"name": "border", "type": "color", "default": "none", "help": "a border colour; none for no border"},
        {"name": "border-width", "type": "number", "range": [0.25, 8], "default": 1, "help": "the border's width in points"},
        {"name": "shadow", "type": "flag", "default": false, "help": "a soft drop shadow under the tag"},
        {"name": "font", "type": "text", "default": "", "help": "font families in fallback order, e.g. 'Noto Sans Arabic, Noto Sans'; default Pinmint's fonts, then the system's"}
      ],
      "marker": {
        "type": "box",
        "name": "tag",
        "shape": {"type": "bubble", "radius": 3, "arrow": {"width": 20, "height": 10, "position": "${pointer}"}},
        "fill": "${fill}",
        "stroke": {"when": "border", "color": "${border}", "width": "${border-width}"},
        "shadow": {"when": "shadow", "color": "#00000066", "offset": [0, 1], "radius": 2},
        "layout": "row", "alignX": "start", "alignY": "center", "gap": 2, "padding": [0, 2],
        "height": "${height}", "minWidth": 40,
        "children": [
          {"when": "badge", "type": "box", "name": "badge", "shape": "circle", "fill": "${badge-color}",
           "width": 20, "height": 20,
           "children": [{"type": "text", "font": "${font}", "text": "${badge}", "fontSize": 14, "weight": "bold", "color": "${fill}"}]},
          {"unless": "badge", "type": "spacer", "width": 2},
          {"type": "text", "font": "${font}", "name": "label", "text": "${label}", "fontSize": "${font-size}",
           "color": "${label-color}", "content": true},
          {"type": "spacer", "width": 2}
        ]
      }
    }
    """#

    // Seed 004: a 200 x 60 bubble, corner radius 6 from four tangent arcs, an
    // arrow of height 10 and half width 10 at the bottom middle, fill 0.3 grey
    // at 80 %, a red glow of radius 3; a 70 x 50 picture at (5, 5), a 14 pt
    // white title at (80, 5) and a 12 pt light grey subtitle at (80, 30).
    static let callout = #"""
    {
      "name": "callout",
      "description": "A callout bubble with a title, a subtitle and a picture when given, sized to its text (seed 004; seed-callout has the seed's picture box, text and red glow).",
      "options": [
        {"name": "title", "type": "text", "default": "", "help": "the first line, 14 pt"},
        {"name": "subtitle", "type": "text", "default": "", "help": "the second line, 12 pt; empty for none"},
        {"name": "picture", "type": "file", "default": "", "help": "a PNG shown at the left (70 x 50, scaled to fill); none by default"},
        {"name": "fill", "type": "color", "default": "rgba(77, 77, 77, 0.8)", "help": "the bubble's colour"},
        {"name": "title-color", "type": "color", "default": "#FFFFFF", "help": "the title's colour"},
        {"name": "subtitle-color", "type": "color", "default": "#AAAAAA", "help": "the subtitle's colour (UIColor.lightGray, as the seed)"},
        {"name": "shadow-color", "type": "color", "default": "#00000040", "help": "the shadow around the bubble; none for none"},
        {"name": "shadow-radius", "type": "number", "range": [0, 32], "default": 2, "help": "its blur radius in points (CALayer's shadowRadius)"},
        {"name": "shadow-x", "type": "number", "range": [-32, 32], "default": 0, "help": "its horizontal offset in points"},
        {"name": "shadow-y", "type": "number", "range": [-32, 32], "default": 1, "help": "its vertical offset in points"},
        {"name": "width", "type": "number", "range": [80, 600], "help": "a fixed width in points; by default the bubble fits its text"},
        {"name": "max-width", "type": "number", "range": [100, 600], "default": 320, "help": "the widest the bubble grows before text is cut with an ellipsis"},
        {"name": "font", "type": "text", "default": "", "help": "font families in fallback order, e.g. 'Noto Sans Arabic, Noto Sans'; default Pinmint's fonts, then the system's"}
      ],
      "marker": {
        "type": "box",
        "name": "bubble",
        "shape": {"type": "bubble", "radius": 6, "arrow": {"width": 20, "height": 10}},
        "fill": "${fill}",
        "shadow": {"when": "shadow-color", "color": "${shadow-color}", "offset": ["${shadow-x}", "${shadow-y}"], "radius": "${shadow-radius}"},
        "layout": "row", "alignX": "start", "alignY": "center", "gap": 5, "padding": [5, 8, 5, 5],
        "width": "${width}", "minWidth": 80, "maxWidth": "${max-width}", "height": 60,
        "children": [
          {"when": "picture", "type": "picture", "name": "picture", "file": "${picture}", "fit": "fill",
           "width": 70, "height": 50},
          {"type": "box", "layout": "stack", "alignX": "start", "alignY": "start", "gap": 5, "content": true,
           "children": [
             {"type": "text", "font": "${font}", "name": "title", "text": "${title}", "fontSize": 14, "color": "${title-color}", "height": 20},
             {"when": "subtitle", "type": "text", "font": "${font}", "name": "subtitle", "text": "${subtitle}", "fontSize": 12,
              "color": "${subtitle-color}", "height": 20}
           ]}
        ]
      }
    }
    """#

    // Seed 001: unselected, a ~36 pt avatar in a white ring with a small
    // pointer and the name on top; selected, a larger avatar and a two-line
    // label (name and phone). Both are rendered together as `ID` and `ID-selected`.
    static let avatar = #"""
    {
      "name": "avatar",
      "description": "A person: round picture or initials in a white ring, name on top; selected shows a larger avatar with name and phone (seed 001).",
      "options": [
        {"name": "name", "type": "text", "default": "", "help": "the person's name (label, and initials without a picture), e.g. 张三"},
        {"name": "phone", "type": "text", "default": "", "help": "shown under the name when selected, e.g. 138 0013 8000; empty for none"},
        {"name": "picture", "type": "file", "default": "", "help": "a PNG clipped to the circle; initials on a disc when none"},
        {"name": "color", "type": "color", "default": "#F39C12", "help": "the initials disc's colour"},
        {"name": "ring", "type": "color", "default": "#FFFFFF", "help": "the ring and pointer colour"},
        {"name": "accent", "type": "color", "default": "#2D8CF0", "help": "the ring colour of the selected state"},
        {"name": "label-fill", "type": "color", "default": "#FFFFFF", "help": "the label's background"},
        {"name": "label-color", "type": "color", "default": "auto", "help": "the label's text colour"},
        {"name": "font", "type": "text", "default": "", "help": "font families in fallback order, e.g. 'Noto Sans Arabic, Noto Sans'; default Pinmint's fonts, then the system's"}
      ],
      "variants": {
        "default": {
          "type": "box", "layout": "stack", "gap": 2, "alignX": "center",
          "children": [
            {"when": "name", "type": "box", "name": "label", "shape": {"type": "roundedRect", "radius": 4}, "fill": "${label-fill}",
             "shadow": {"color": "#00000040", "offset": [0, 1], "radius": 1.5}, "padding": [2, 6], "maxWidth": 120,
             "children": [{"type": "text", "font": "${font}", "text": "${name}", "fontSize": 12, "color": "${label-color}", "content": true}]},
            {"type": "box", "name": "avatar", "shape": {"type": "teardrop", "point": 7}, "fill": "${ring}",
             "shadow": {"color": "#00000059", "offset": [0, 1], "radius": 2},
             "width": 36, "height": 36, "padding": 2,
             "children": [
               {"when": "picture", "type": "picture", "file": "${picture}", "clip": "circle", "width": 32, "height": 32},
               {"unless": "picture", "type": "box", "shape": "circle", "fill": "${color}", "width": 32, "height": 32,
                "children": [{"type": "text", "font": "${font}", "text": "${name|initials}", "fontSize": 14, "weight": "bold"}]}
             ]}
          ]
        },
        "selected": {
          "type": "box", "layout": "stack", "gap": 3, "alignX": "center",
          "children": [
            {"when": "name|phone", "type": "box", "name": "label", "shape": {"type": "roundedRect", "radius": 6}, "fill": "${label-fill}",
             "shadow": {"color": "#00000040", "offset": [0, 1], "radius": 2}, "padding": [4, 8], "maxWidth": 180,
             "layout": "stack", "gap": 1, "content": true,
             "children": [
               {"type": "text", "font": "${font}", "text": "${name}", "fontSize": 14, "weight": "bold", "color": "${label-color}"},
               {"when": "phone", "type": "text", "font": "${font}", "text": "${phone}", "fontSize": 12, "color": "${label-color}"}
             ]},
            {"type": "box", "name": "avatar", "shape": {"type": "teardrop", "point": 10}, "fill": "${accent}",
             "shadow": {"color": "#00000066", "offset": [0, 2], "radius": 3},
             "width": 56, "height": 56, "padding": 3,
             "children": [
               {"when": "picture", "type": "picture", "file": "${picture}", "clip": "circle", "width": 50, "height": 50},
               {"unless": "picture", "type": "box", "shape": "circle", "fill": "${color}", "width": 50, "height": 50,
                "children": [{"type": "text", "font": "${font}", "text": "${name|initials}", "fontSize": 22, "weight": "bold"}]}
             ]}
          ]
        }
      }
    }
    """#

    // Seed 002: the teardrop pin carrying an index number, a short text, an
    // icon or a picture in its head; the anchor is the point at the bottom.
    static let pin = #"""
    {
      "name": "pin",
      "description": "The classic teardrop map pin with a number, text, icon or picture in its head (seed 002).",
      "options": [
        {"name": "label", "type": "text", "default": "", "help": "a number or short text in the head (e.g. 1)"},
        {"name": "icon", "type": "text", "default": "", "help": "SVG path data for an icon in the head, in a 24 x 24 box"},
        {"name": "icon-file", "type": "file", "default": "", "help": "an SVG file drawn in the head"},
        {"name": "picture", "type": "file", "default": "", "help": "a PNG framed in the head (clipped to a circle)"},
        {"name": "fill", "type": "color", "default": "#E74C3C", "help": "the pin's colour"},
        {"name": "color", "type": "color", "default": "auto", "help": "the label's or icon's colour"},
        {"name": "border", "type": "color", "default": "#FFFFFF", "help": "the outline colour; none for none"},
        {"name": "dot", "type": "color", "default": "#FFFFFF", "help": "the dot drawn in an empty head; none for none"},
        {"name": "font", "type": "text", "default": "", "help": "font families in fallback order, e.g. 'Noto Sans Arabic, Noto Sans'; default Pinmint's fonts, then the system's"}
      ],
      "marker": {
        "type": "box",
        "name": "pin",
        "shape": {"type": "teardrop", "point": 14},
        "fill": "${fill}",
        "stroke": {"when": "border", "color": "${border}", "width": 1.5},
        "shadow": {"color": "#00000050", "offset": [0, 1], "radius": 1.5},
        "width": 32, "height": 32, "padding": 4,
        "children": [
          {"when": "picture", "type": "picture", "file": "${picture}", "clip": "circle", "width": 24, "height": 24},
          {"when": "icon-file", "unless": "picture", "type": "icon", "file": "${icon-file}", "width": 16, "height": 16},
          {"when": "icon", "unless": ["picture", "icon-file"], "type": "icon", "path": "${icon}", "color": "${color}", "width": 16, "height": 16},
          {"when": "label", "unless": ["picture", "icon-file", "icon"], "type": "text", "font": "${font}", "text": "${label}", "fontSize": 13,
           "weight": "bold", "color": "${color}", "content": true},
          {"when": "dot", "unless": ["picture", "icon-file", "icon", "label"], "type": "box", "shape": "circle", "fill": "${dot}",
           "width": 10, "height": 10}
        ]
      }
    }
    """#

    // The seeds' own looks, as the neutral presets were before issue 23
    // (seed 000: width = label + 30, badge circle at x 2, label at x 24):
    // seed 000's tag with its sample label and 成 badge; seed 004's callout
    // with its sample title and subtitle, a black 70 x 50 picture box until a
    // picture is given and a red glow.
    static let seedPriceTag = #"""
    {
      "name": "seed-price-tag",
      "description": "The seed's price tag: the neutral price-tag with the seed's sample label 5200萬 and its 成 badge (seed 000).",
      "options": [
        {"name": "label", "type": "text", "default": "5200萬", "help": "the price or text on the tag"},
        {"name": "badge", "type": "text", "default": "成", "help": "a glyph in the white circle; empty or none for no badge"},
        {"name": "fill", "type": "color", "default": "#3598DB", "help": "the tag's colour"},
        {"name": "label-color", "type": "color", "default": "auto", "help": "the label's colour; auto picks black or white for contrast"},
        {"name": "badge-color", "type": "color", "default": "#FFFFFF", "help": "the badge circle's colour"},
        {"name": "font-size", "type": "number", "range": [6, 48], "default": 12, "help": "the label's size in points"},
        {"name": "height", "type": "number", "range": [16, 200], "default": 28, "help": "the tag's height in points, pointer excluded"},
        {"name": "pointer", "type": "choice", "choices": ["center", "left", "right", "none"], "default": "center", "help": "where the pointer sits under the tag"},
        {"name": "border", "type": "color", "default": "none", "help": "a border colour; none for no border"},
        {"name": "border-width", "type": "number", "range": [0.25, 8], "default": 1, "help": "the border's width in points"},
        {"name": "shadow", "type": "flag", "default": false, "help": "a soft drop shadow under the tag"},
        {"name": "font", "type": "text", "default": "", "help": "font families in fallback order, e.g. 'Noto Sans Arabic, Noto Sans'; default Pinmint's fonts, then the system's"}
      ],
      "marker": {
        "type": "box",
        "name": "tag",
        "shape": {"type": "bubble", "radius": 3, "arrow": {"width": 20, "height": 10, "position": "${pointer}"}},
        "fill": "${fill}",
        "stroke": {"when": "border", "color": "${border}", "width": "${border-width}"},
        "shadow": {"when": "shadow", "color": "#00000066", "offset": [0, 1], "radius": 2},
        "layout": "row", "alignX": "start", "alignY": "center", "gap": 2, "padding": [0, 2],
        "height": "${height}",
        "children": [
          {"when": "badge", "type": "box", "name": "badge", "shape": "circle", "fill": "${badge-color}",
           "width": 20, "height": 20,
           "children": [{"type": "text", "font": "${font}", "text": "${badge}", "fontSize": 14, "weight": "bold", "color": "${fill}"}]},
          {"unless": "badge", "type": "spacer", "width": 2},
          {"type": "text", "font": "${font}", "name": "label", "text": "${label}", "fontSize": "${font-size}",
           "color": "${label-color}", "content": true},
          {"type": "spacer", "width": 2}
        ]
      }
    }
    """#

    static let seedCallout = #"""
    {
      "name": "seed-callout",
      "description": "The seed's callout: a black 70 x 50 picture box until a picture is given, the sample title and subtitle, a red glow (seed 004).",
      "options": [
        {"name": "title", "type": "text", "default": "我是商户名", "help": "the first line, 14 pt"},
        {"name": "subtitle", "type": "text", "default": "我是商户地址", "help": "the second line, 12 pt; empty for none"},
        {"name": "picture", "type": "file", "default": "", "help": "a PNG shown at the left (70 x 50, scaled to fill); black when none"},
        {"name": "fill", "type": "color", "default": "rgba(77, 77, 77, 0.8)", "help": "the bubble's colour"},
        {"name": "title-color", "type": "color", "default": "#FFFFFF", "help": "the title's colour"},
        {"name": "subtitle-color", "type": "color", "default": "#AAAAAA", "help": "the subtitle's colour (UIColor.lightGray, as the seed)"},
        {"name": "shadow-color", "type": "color", "default": "#FF0000", "help": "the glow or shadow around the bubble; none for none"},
        {"name": "shadow-radius", "type": "number", "range": [0, 32], "default": 3, "help": "its blur radius in points (CALayer's shadowRadius)"},
        {"name": "shadow-x", "type": "number", "range": [-32, 32], "default": 0, "help": "its horizontal offset in points"},
        {"name": "shadow-y", "type": "number", "range": [-32, 32], "default": 0, "help": "its vertical offset in points"},
        {"name": "width", "type": "number", "range": [100, 600], "help": "a fixed width in points; by default the bubble fits its text"},
        {"name": "max-width", "type": "number", "range": [100, 600], "default": 320, "help": "the widest the bubble grows before text is cut with an ellipsis"},
        {"name": "font", "type": "text", "default": "", "help": "font families in fallback order, e.g. 'Noto Sans Arabic, Noto Sans'; default Pinmint's fonts, then the system's"}
      ],
      "marker": {
        "type": "box",
        "name": "bubble",
        "shape": {"type": "bubble", "radius": 6, "arrow": {"width": 20, "height": 10}},
        "fill": "${fill}",
        "shadow": {"when": "shadow-color", "color": "${shadow-color}", "offset": ["${shadow-x}", "${shadow-y}"], "radius": "${shadow-radius}"},
        "layout": "row", "alignX": "start", "alignY": "center", "gap": 5, "padding": [5, 8, 5, 5],
        "width": "${width}", "minWidth": 160, "maxWidth": "${max-width}", "height": 60,
        "children": [
          {"type": "picture", "name": "picture", "file": "${picture}", "placeholder": "#000000", "fit": "fill",
           "width": 70, "height": 50},
          {"type": "box", "layout": "stack", "alignX": "start", "alignY": "start", "gap": 5, "content": true,
           "children": [
             {"type": "text", "font": "${font}", "name": "title", "text": "${title}", "fontSize": 14, "color": "${title-color}", "height": 20},
             {"when": "subtitle", "type": "text", "font": "${font}", "name": "subtitle", "text": "${subtitle}", "fontSize": 12,
              "color": "${subtitle-color}", "height": 20}
           ]}
        ]
      }
    }
    """#
}
