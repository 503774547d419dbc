// swift-tools-version:6.0
// Pinmint: map-marker bitmaps drawn by our own rasterizer.
// Dependencies point one way: geometry -> raster -> svg / png / text -> the command.
import PackageDescription

/// The settings of every Swift target: release builds keep Swift's checks
/// (array bounds, integer overflow, exclusivity) everywhere, the rasterizer
/// included, so a bug that input reaches is a clean stop rather than
/// undefined behaviour. SwiftPM already optimises release builds as a whole
/// module. The rasterizer's hot loops keep their speed in checked code:
/// buffer pointers taken once per row or band, wrapping arithmetic where
/// overflow is impossible by construction, checks hoisted out of loops.
let swiftSettings: [SwiftSetting] = []

let package = Package(
    name: "Pinmint",
    products: [
        .library(name: "PinmintGeometry", targets: ["PinmintGeometry"]),
        .library(name: "PinmintRaster", targets: ["PinmintRaster"]),
        .library(name: "PinmintSVG", targets: ["PinmintSVG"]),
        .library(name: "PinmintPNG", targets: ["PinmintPNG"]),
        .library(name: "PinmintText", targets: ["PinmintText"]),
        .library(name: "PinmintMarkers", targets: ["PinmintMarkers"]),
        .library(name: "PinmintDiff", targets: ["PinmintDiff"]),
        .library(name: "PinmintSprites", targets: ["PinmintSprites"]),
        // For test targets only: `assertImageMatchesGolden` (imports Testing and XCTest).
        .library(name: "PinmintTesting", targets: ["PinmintTesting"]),
        .executable(name: "pinmint", targets: ["pinmint"]),
    ],
    targets: [
        // MARK: Libraries
        .target(name: "PinmintGeometry", swiftSettings: swiftSettings),
        .target(name: "PinmintRaster", dependencies: ["PinmintGeometry"], swiftSettings: swiftSettings),
        .target(name: "PinmintSVG", dependencies: ["PinmintGeometry", "PinmintRaster"], swiftSettings: swiftSettings),
        .target(name: "PinmintPNG", dependencies: ["PinmintGeometry", "PinmintRaster", "CPNGShim"], swiftSettings: swiftSettings),
        .target(name: "PinmintText",
                dependencies: ["PinmintGeometry", "PinmintRaster", "CFreeTypeShim", "CHarfBuzzShim", "CFriBidiShim",
                               "CFontconfigShim", "CICUShim"],
                swiftSettings: swiftSettings),
        // Markers: the description format, presets, layout, metadata.
        .target(name: "PinmintMarkers",
                dependencies: ["PinmintGeometry", "PinmintRaster", "PinmintSVG", "PinmintPNG", "PinmintText"],
                swiftSettings: swiftSettings),
        // Sprite sheets (packing, SDF, the MapLibre index) and batch rendering from CSV, JSON lines, GeoJSON.
        .target(name: "PinmintSprites",
                dependencies: ["PinmintMarkers", "PinmintSVG", "PinmintPNG", "PinmintText", "PinmintRaster", "PinmintGeometry"],
                swiftSettings: swiftSettings),
        // Pixel diff (pixelmatch's algorithm), golden suites, their HTML report and the snapshot assertion.
        .target(name: "PinmintDiff", dependencies: ["PinmintGeometry", "PinmintRaster", "PinmintPNG"], swiftSettings: swiftSettings),
        // The golden assertion for Swift Testing and XCTest tests. Its own target, so that
        // no other library (nor the command) links a test framework.
        .target(name: "PinmintTesting", dependencies: ["PinmintDiff", "PinmintRaster", "PinmintGeometry"],
                swiftSettings: swiftSettings),

        // MARK: C shims
        // libpng reports errors by longjmp; the shim keeps every setjmp inside C.
        .target(name: "CPNGShim", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
        // FreeType's function-like macros become pinmint_ft_ inline functions; a
        // system-library target so that pkg-config's include path (freetype2)
        // reaches both the shim header and the Swift code that imports it.
        .systemLibrary(name: "CFreeTypeShim", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev", "pkg-config"])]),
        // Text: HarfBuzz shapes (over the FreeType faces), FriBidi orders
        // bidirectional text, fontconfig finds the system's fonts, ICU finds
        // line breaks. Each shim wraps its library's macros; one Swift file
        // per library (in PinmintText) makes its raw calls.
        .systemLibrary(name: "CHarfBuzzShim", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidiShim", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CFontconfigShim", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig1-dev"])]),
        // ICU's headers clash with the toolchain's own copy (Foundation's _FoundationICU), so
        // ICU is a C target whose header holds no ICU type.
        .target(name: "CICUShim", linkerSettings: [.linkedLibrary("icuuc")]),

        // MARK: Tool
        .executableTarget(
            name: "pinmint",
            dependencies: ["PinmintGeometry", "PinmintRaster", "PinmintSVG", "PinmintPNG", "PinmintText", "PinmintMarkers", "PinmintDiff",
                           "PinmintSprites"],
            swiftSettings: swiftSettings),

        // MARK: Fuzzing
        // Every parser's fuzz harness: `make fuzz` builds it with libFuzzer and
        // AddressSanitizer (-DFUZZING); `make test` replays Fuzz/regressions/ with
        // the release build (see Fuzz/README.md).
        .executableTarget(
            name: "PinmintFuzz",
            dependencies: ["PinmintGeometry", "PinmintRaster", "PinmintSVG", "PinmintPNG", "PinmintMarkers", "PinmintDiff",
                           "PinmintSprites"],
            swiftSettings: swiftSettings),

        // MARK: Benchmarks
        .executableTarget(
            name: "PinmintBench",
            dependencies: ["PinmintGeometry", "PinmintRaster", "PinmintSVG", "PinmintText", "PinmintPNG", "PinmintMarkers", "PinmintDiff",
                           "PinmintSprites"],
            swiftSettings: swiftSettings),

        // MARK: Tests
        .testTarget(name: "PinmintGeometryTests", dependencies: ["PinmintGeometry"]),
        .testTarget(name: "PinmintRasterTests", dependencies: ["PinmintRaster", "PinmintGeometry"]),
        .testTarget(
            name: "PinmintSVGTests",
            dependencies: ["PinmintSVG", "PinmintRaster", "PinmintPNG", "PinmintDiff", "PinmintTesting"],
            resources: []),
        // Resources/ (PngSuite and its reference table) is read from disk by path.
        .testTarget(name: "PinmintPNGTests", dependencies: ["PinmintPNG", "PinmintRaster"], exclude: ["Resources"]),
        .testTarget(
            name: "PinmintTextTests",
            dependencies: ["PinmintText", "PinmintRaster", "PinmintGeometry", "PinmintPNG", "PinmintDiff", "PinmintTesting"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "PinmintMarkersTests",
            dependencies: ["PinmintMarkers", "PinmintRaster", "PinmintGeometry", "PinmintPNG", "PinmintDiff", "PinmintTesting",
                           "PinmintSVG", "PinmintText", "PinmintSprites"]),
        .testTarget(name: "PinmintSpritesTests",
                    dependencies: ["PinmintSprites", "PinmintMarkers", "PinmintSVG", "PinmintPNG", "PinmintRaster"]),
        // Resources/ (image pairs and pixelmatch's counts for them) is read from disk by path.
        .testTarget(name: "PinmintDiffTests", dependencies: ["PinmintDiff", "PinmintRaster", "PinmintPNG", "PinmintSVG", "PinmintTesting"],
                    exclude: ["Resources"]),
        // Runs the built `pinmint` binary: exit codes, messages and files are contracts.
        .testTarget(name: "PinmintCommandTests", dependencies: ["pinmint", "PinmintPNG"]),
    ]
)
