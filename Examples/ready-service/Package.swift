// swift-tools-version:6.0
import PackageDescription

// A package of its own, so that users of NetworkReachability never resolve Hummingbird: it
// depends on the repository by path, as an application would depend on it by URL.
let package = Package(
    name: "ready-service",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "ready-service", targets: ["ready-service"]),
        .executable(name: "path-server", targets: ["path-server"]),
    ],
    dependencies: [
        .package(name: "NetworkReachability", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "ReadyService",
            dependencies: [
                .product(name: "NetworkReachabilityService", package: "NetworkReachability"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .executableTarget(name: "ready-service", dependencies: ["ReadyService"]),
        .testTarget(
            name: "ReadyServiceTests",
            dependencies: [
                "ReadyService",
                .product(name: "NetworkReachabilityTesting", package: "NetworkReachability"),
                // Not HummingbirdTesting: it brings async-http-client, swift-nio-ssl and swift-crypto,
                // minutes of build for one GET; Tests/ReadyServiceTests/HTTPGet.swift does it with a socket.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The server of the repository's README and of its DocC article "A service", target for target as
// the article shows them (the repository's ReadmeExamplesTests check the lines): GET /network, PathServer.swift.
package.targets += [
    .target(name: "PathServer", dependencies: [
        .product(name: "NetworkReachabilityService", package: "NetworkReachability"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
    ]),
    .executableTarget(name: "path-server", dependencies: ["PathServer"]),
    .testTarget(name: "PathServerTests", dependencies: [
        "PathServer",
        .product(name: "NetworkReachabilityTesting", package: "NetworkReachability"),
    ]),
]
