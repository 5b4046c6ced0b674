// swift-tools-version:6.0
// The code generator alone, built apart from the server's package so that neither the server's
// build nor its tests pay for OpenAPIKit and Yams (scripts/openapi-client.sh; docs/openapi.md).
import PackageDescription

let package = Package(
    name: "openapi-client-generator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3")
    ]
)
