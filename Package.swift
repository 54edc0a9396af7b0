// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "NetworkReachability",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "NetworkReachability", targets: ["NetworkReachability"]),
        // NetworkReachability without ReachabilityManager, and so without Foundation: for services
        // and commands that only need PathMonitor (the `reachability` command links this one).
        .library(name: "NetworkReachabilityCore", targets: ["NetworkReachabilityCore"]),
        // Apple's names (SCNetworkReachability..., NWPathMonitor) over NetworkReachability.
        .library(name: "ReachabilityCompat", targets: ["ReachabilityCompat"]),
        // `import SystemConfiguration` on Linux: re-exports ReachabilityCompat. A package that also
        // builds for Apple's platforms names it with `condition: .when(platforms: [.linux])`.
        .library(name: "SystemConfiguration", targets: ["SystemConfiguration"]),
        // A PathMonitor as a swift-service-lifecycle Service; the core library does not depend on it.
        .library(name: "NetworkReachabilityService", targets: ["NetworkReachabilityService"]),
        // A FakePathMonitor for users' tests; nothing but the core library.
        .library(name: "NetworkReachabilityTesting", targets: ["NetworkReachabilityTesting"]),
        .executable(name: "reachability", targets: ["reachability"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // CoreMetrics only: an API package without dependencies, as swift-log; see CONTRIBUTING.md.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // libnl-3 and libnl-route-3; only Sources/NetworkReachabilityCore/Netlink imports it.
        .systemLibrary(
            name: "CNetlink",
            path: "Modules/CNetlink",
            pkgConfig: "libnl-route-3.0",
            // Debian and Ubuntu; Fedora, RHEL/UBI, Amazon Linux (dnf and yum). scripts/bootstrap installs either.
            providers: [.apt(["libnl-3-dev", "libnl-route-3-dev"]), .yum(["libnl3-devel"])]
        ),
        // OpenSSL 3 for https:// connectivity probes; only Sources/NetworkReachabilityCore/Connectivity
        // imports it, and nothing of it runs unless an https:// probe is configured.
        .systemLibrary(
            name: "COpenSSL",
            path: "Modules/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .yum(["openssl-devel"])]
        ),
        // ReachabilityFlags declared in C so it can appear in a @convention(c) callback type.
        .target(name: "CReachabilityFlags"),
        // Everything but ReachabilityManager: no Foundation, so a static binary carries none of it.
        .target(
            name: "NetworkReachabilityCore",
            dependencies: [
                "CNetlink",
                "COpenSSL",
                "CReachabilityFlags",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The module users import: the core re-exported, and ReachabilityManager, whose
        // `didChangeNotification` (api.md) is a Foundation `Notification.Name`.
        .target(name: "NetworkReachability", dependencies: ["NetworkReachabilityCore"]),
        .target(name: "ReachabilityCompat", dependencies: ["NetworkReachability"]),
        .target(name: "NetworkReachabilityTesting", dependencies: ["NetworkReachability"]),
        .target(name: "SystemConfiguration", dependencies: ["ReachabilityCompat"]),
        // Ported Apple-style programs; `swift build` builds them, so they stay true.
        // The examples' shared command line (--updates, --timeout), not part of any product.
        .target(name: "ExampleSupport", path: "Examples/ExampleSupport"),
        .executableTarget(name: "sc-monitor", dependencies: ["ReachabilityCompat", "ExampleSupport"], path: "Examples/sc-monitor"),
        .executableTarget(name: "af-manager", dependencies: ["NetworkReachability", "ReachabilityCompat", "ExampleSupport"], path: "Examples/af-manager"),
        .executableTarget(name: "nw-monitor", dependencies: ["ReachabilityCompat", "ExampleSupport"], path: "Examples/nw-monitor"),
        .target(
            name: "NetworkReachabilityService",
            dependencies: [
                "NetworkReachability",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "reachability",
            dependencies: [
                "NetworkReachabilityCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `--verbose`: the command bootstraps swift-log, which the library logs through.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "NetworkReachabilityTests", dependencies: ["NetworkReachability", "NetworkReachabilityCore", "NetworkReachabilityTesting"]),
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "NetworkReachabilityService",
                "NetworkReachabilityTesting",
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "NetworkReachability", "NetworkReachabilityCore", "ReachabilityCompat", "SystemConfiguration",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
