// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

// Upcoming features the house style asks for (docs/style.md "Compiler").
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "petspot-web",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "petspot-web", targets: ["petspot-web"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // The shared write store of several replicas (docs/replicas.md): PostgreSQL, and the seal of the code at rest.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The API's typed client, generated from docs/openapi.yaml (docs/openapi.md).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
    ],
    targets: [
        // libmicrohttpd, from Debian's libmicrohttpd-dev, found through pkg-config.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // zlib (Debian zlib1g-dev) and Brotli (Debian libbrotli-dev): the gzip and br content codings.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"])]),
        // glibc's <malloc.h> (not in Swift's Glibc module): the executable's malloc arena tuning.
        .systemLibrary(name: "CMalloc"),
        // The compiler's prefetch builtin, which Swift does not offer: kept fragments asked for before they are read (FastBytes).
        .systemLibrary(name: "CPrefetch"),
        // The fast path's raw memory, behind values and views: byte views, the fragments' arena, atomically
        // published words and references, the page writer's cursor, prefetching (docs/style.md "Confine unsafe code").
        .target(name: "FastBytes", dependencies: ["CPrefetch"], swiftSettings: strictSettings),
        // Its own tests, run under AddressSanitizer and ThreadSanitizer too (scripts/sanitizers.sh).
        .testTarget(name: "FastBytesTests", dependencies: ["FastBytes"], swiftSettings: strictSettings),
        // gzip and Brotli on byte arrays: the thin Swift wrapper over CZlib and CBrotli.
        .target(name: "ContentCompression", dependencies: ["CZlib", "CBrotli"], swiftSettings: strictSettings),
        // The thin HTTP server over libmicrohttpd: server, value types, C callbacks; its unsafe code
        // lives in `*+C.swift` files (docs/transport.md).
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD",
                "FastBytes",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // libvips, from Debian's libvips-dev, found through pkg-config (the photo variants).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // Fixed-arity C wrappers over libvips's variadic calls (Swift cannot call C variadics).
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        // The thin Swift wrapper over libvips and the bounded conversion pool: with MicroHTTP,
        // the only Swift code that touches C pointers.
        .target(name: "ImageResizer", dependencies: ["CVipsShim"], swiftSettings: strictSettings),
        // libqrencode, from Debian's libqrencode-dev, found through pkg-config (the poster's QR code).
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]
        ),
        // The QR code as a matrix of modules and an SVG path: the only Swift code that calls libqrencode.
        .target(name: "QRCode", dependencies: ["CQREncode"], swiftSettings: strictSettings),
        // libcurl, from Debian's libcurl4-openssl-dev, found through pkg-config: the SMTP client of the mail alerts (docs/mail.md).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Fixed-arity C wrappers over libcurl's variadic calls (Swift cannot call C variadics).
        .target(name: "CCurlShim", dependencies: ["CCurl"]),
        // Alert mails: RFC 5322/MIME rendering, DKIM signing, delivery over SMTP (libcurl) or into a Maildir (docs/mail.md).
        .target(
            name: "MailDelivery",
            dependencies: [
                "CCurlShim",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // Against a real SMTP server (scripts/mail/smtp-sink.py) and Python's email and dkimpy as oracles.
        .testTarget(name: "MailDeliveryTests", dependencies: ["MailDelivery"], swiftSettings: strictSettings),
        // The four storage kinds, no dependencies: byte cache, per-snapshot memo, expiring map, single flight (docs/caches.md).
        .target(name: "Caching", swiftSettings: strictSettings),
        // The write path's shared state behind one interface, and its in-memory implementation (docs/replicas.md).
        .target(
            name: "ReportStore",
            dependencies: ["Caching", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        // The write store in PostgreSQL, and the change feed (LISTEN/NOTIFY): the adapter only the executable composes.
        .target(
            name: "PetSpotPostgres",
            dependencies: [
                "ReportStore",
                "Alerts",
                "Sightings",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // E-mail alerts' rules and state behind one interface, and its in-memory implementation (docs/alerts.md).
        .target(
            name: "Alerts",
            dependencies: ["PetDomain", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Sightings and reunions: what the owner alone is told, and the state the backend cannot keep (docs/sightings.md).
        .target(name: "Sightings", dependencies: ["PetDomain", "Alerts"], swiftSettings: strictSettings),
        // The validated domain: Foundation only, no I/O (FastBytes: the located index's pinned views).
        .target(name: "PetDomain", dependencies: ["FastBytes"], swiftSettings: strictSettings),
        // The upstream backend: HTTP client, timeouts, cache, error mapping.
        .target(
            name: "PetAPIClient",
            dependencies: [
                "Caching",
                "PetDomain",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The embedded sample backend, served over loopback by our own server core.
        .target(
            name: "DemoUpstream",
            dependencies: [
                "MicroHTTP",
                "PetDomain",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `@TemplateFields`: a view model's template lookup written from its declaration.
        .macro(
            name: "ViewModelMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        // The template engine: Templates/ parsed once and rendered on bytes, exactly as swift-mustache
        // renders them (CompiledTemplatesTests compare them byte for byte; see docs/templates.md).
        .target(
            name: "CompiledTemplates",
            dependencies: [.product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strictSettings
        ),
        // Routes, pages, view models, rendering, static files, configuration.
        .target(
            name: "WebApp",
            dependencies: [
                "ViewModelMacros",
                "CompiledTemplates",
                "Caching",
                "FastBytes",
                "ContentCompression",
                "MicroHTTP",
                "PetDomain",
                "PetAPIClient",
                "ImageResizer",
                "QRCode",
                "ReportStore",
                "Alerts",
                "Sightings",
                "MailDelivery",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "petspot-web",
            dependencies: [
                "WebApp",
                "MicroHTTP",
                "CMalloc",
                "ReportStore",
                "PetSpotPostgres",
                // The executable composes the embedded demo upstream; WebApp does not know it.
                "DemoUpstream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Release-build benchmark of the domain layer and of pages per second (docs/performance.md); prints figures, asserts nothing.
        .executableTarget(
            name: "domain-benchmark",
            dependencies: [
                "PetDomain", "PetAPIClient", "WebApp", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Release-build benchmark of the template engine against swift-mustache (scripts/bench/templates.sh); asserts nothing.
        .executableTarget(
            name: "template-benchmark",
            dependencies: ["CompiledTemplates", "WebApp", "TemplateSamples", .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: strictSettings
        ),
        // Test support, not shipped: the site's view models filled as the pages fill them, for the template
        // benchmark and CompiledTemplatesTests (through the models' `package` access; docs/templates.md).
        .target(name: "TemplateSamples", dependencies: ["WebApp"], path: "Tests/TemplateSamples", swiftSettings: strictSettings),
        // The API's typed client, generated from docs/openapi.yaml by scripts/openapi-client.sh and
        // committed (docs/openapi.md); the integration tests speak to the real server through it.
        .target(
            name: "PetSpotAPIClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ]
        ),
        // Test support shared by the test targets: a controllable fake backend with fault modes,
        // and URLSession/raw-socket client helpers.
        .target(
            name: "TestSupport",
            dependencies: [
                "MicroHTTP", "PetDomain", .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: [
                "MicroHTTP", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ViewModelMacrosTests",
            dependencies: [
                "ViewModelMacros",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "CachingTests", dependencies: ["Caching"], swiftSettings: strictSettings),
        // One contract on both write stores, one on both alert stores; the PostgreSQL ones against a throwaway cluster the tests start.
        .testTarget(
            name: "WriteStoreTests",
            dependencies: ["ReportStore", "Alerts", "Sightings", "PetSpotPostgres", "TestSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PetDomainTests",
            dependencies: ["PetDomain"],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PetAPIClientTests",
            dependencies: [
                "PetAPIClient", "PetDomain", "MicroHTTP", "DemoUpstream", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The template engine against swift-mustache, on the site's templates and view models.
        .testTarget(
            name: "CompiledTemplatesTests",
            dependencies: [
                "CompiledTemplates", "WebApp", "FastBytes", "TemplateSamples",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebAppTests",
            dependencies: [
                "WebApp", "CompiledTemplates", "FastBytes", "MicroHTTP", "PetDomain", "PetAPIClient", "DemoUpstream", "TestSupport", "ImageResizer",
                "QRCode",
                "ContentCompression", "ReportStore", "PetSpotPostgres", "PetSpotAPIClient", "Sightings",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: strictSettings
        ),
    ]
)
