// swift-tools-version:6.0
// Pinmint as another package uses it:
// - Sources/Snippets: every Swift snippet of README.md and docs/, compiled
//   (Tests/ConsumerTests/SnippetTests.swift fails when a snippet in the docs
//   is not here word for word), so that the docs cannot rot;
// - Tests/ConsumerTests: golden tests as a user writes them, one with Swift
//   Testing and one with XCTest, through `assertImageMatchesGolden`, and
//   docs/golden.md's two examples (goldens in Tests/ConsumerTests/Goldens).
//
// Pinmint is the checkout this folder sits in (`cd Examples && swift test`),
// or, when PINMINT_PACKAGE_URL is set, the git repository it names, by
// version: `make test-consumer` tags a copy of the checkout 0.1.0 and sets it.
import PackageDescription

/// A package's identity as SwiftPM derives it from a URL or a folder: its
/// last path component, without `.git`, in lower case.
func identity(of location: String) -> String {
    var name = Substring(location.split(separator: "/").last ?? "")
    if name.hasSuffix(".git") { name = name.dropLast(4) }
    return name.lowercased()
}

let pinmint: Package.Dependency
let pinmintPackage: String
if let url = Context.environment["PINMINT_PACKAGE_URL"], !url.isEmpty {
    pinmint = .package(url: url, from: "0.1.0")
    pinmintPackage = identity(of: url)
} else {
    pinmint = .package(path: "..")
    pinmintPackage = identity(of: String(Context.packageDirectory.split(separator: "/").dropLast().joined(separator: "/")))
}

func product(_ name: String) -> Target.Dependency { .product(name: name, package: pinmintPackage) }

let package = Package(
    name: "PinmintExamples",
    dependencies: [pinmint],
    targets: [
        .target(name: "Snippets", dependencies: ["PinmintGeometry", "PinmintRaster", "PinmintPNG", "PinmintText",
                                                 "PinmintMarkers", "PinmintSprites"].map(product)),
        .testTarget(name: "ConsumerTests",
                    dependencies: ["PinmintMarkers", "PinmintDiff", "PinmintRaster", "PinmintSVG", "PinmintTesting"].map(product)),
    ]
)
