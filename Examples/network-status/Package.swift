// swift-tools-version:6.0
import PackageDescription

// A service that builds on Linux (CI, containers) and on its developers' Macs: NetworkReachability
// on Linux only, Apple's Network framework on macOS, one protocol of the service's own between.
let package = Package(
    name: "network-status",
    platforms: [.macOS(.v13)],
    dependencies: [
        // A checkout in a folder beside this one: the package's name below is the folder's last
        // component. With a URL: .package(url: "https://<host>/NetworkReachability.git", from: "0.1.0").
        .package(path: "../NetworkReachability"),
    ],
    targets: [
        .executableTarget(
            name: "network-status",
            dependencies: [
                .product(name: "NetworkReachability", package: "NetworkReachability", condition: .when(platforms: [.linux])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
