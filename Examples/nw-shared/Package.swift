// swift-tools-version:6.0
import PackageDescription

// Code written for Apple's NWPathMonitor, shared between Apple's platforms and Linux: the Network
// framework on Apple's platforms, ReachabilityCompat's NWPathMonitor on Linux only.
let package = Package(
    name: "nw-shared",
    platforms: [.macOS(.v13)],
    dependencies: [
        // A checkout in a folder beside this one: the package's name below is the folder's last
        // component. With a URL: .package(url: "https://<host>/NetworkReachability.git", from: "0.1.0").
        .package(path: "../NetworkReachability"),
    ],
    targets: [
        .executableTarget(
            name: "nw-shared",
            dependencies: [
                .product(name: "ReachabilityCompat", package: "NetworkReachability", condition: .when(platforms: [.linux])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
