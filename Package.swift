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
        // OpenSSL 3's headers for https:// connectivity probes (libssl-dev, openssl-devel); only
        // ReachabilityConnectivity imports it. Not linked: the first https:// probe or captive-portal
        // API fetch loads libssl.so.3 with dlopen (OpenSSLLibrary), so a process without one maps none
        // of it, and the command runs where libssl3 is not installed.
        .systemLibrary(name: "COpenSSL", path: "Modules/COpenSSL"),
        // ReachabilityFlags declared in C so it can appear in a @convention(c) callback type.
        .target(name: "CReachabilityFlags"),
        // The layers of the core, each a module, so the compiler keeps the arrows one way
        // (CONTRIBUTING.md, "Layers"): a module sees only what it names here. None is a product;
        // between them, `package` access.
        // The locks (a value behind a mutex, the recursive callout lock), the wake pipe, one-shot
        // resumption, syscall wrappers: sees nothing of ours.
        .target(name: "ReachabilitySystem"),
        // Public values (flags, paths, interfaces, errors) and the kernel's values the layers exchange.
        .target(name: "ReachabilityModel", dependencies: ["ReachabilitySystem", "CReachabilityFlags"]),
        // The only importer of libnl: sockets, route lookups, namespace entry, sysfs.
        .target(name: "ReachabilityNetlink", dependencies: ["ReachabilityModel", "ReachabilitySystem", "CNetlink"]),
        // Pure functions from the kernel's values to flags and paths: no I/O.
        .target(name: "ReachabilityEvaluation", dependencies: ["ReachabilityModel"]),
        // Host names: resolver threads inside the namespace, the resolver's configuration.
        .target(name: "ReachabilityResolution", dependencies: ["ReachabilityModel", "ReachabilityNetlink", "ReachabilitySystem"]),
        // The connectivity probe's client: HTTP/TCP and TLS (the only importer of OpenSSL), its parser and runner.
        .target(
            name: "ReachabilityConnectivity",
            dependencies: ["ReachabilityModel", "ReachabilityNetlink", "ReachabilityResolution", "ReachabilitySystem", "COpenSSL"]
        ),
        // A loop's thread as other code sees it (which loop runs here, what a turn leaves on it,
        // the one way a loop thread waits for another) and `LoopBound`. The poll loop itself,
        // generic over its owner's messages, is compiled with the engine (ReachabilityEngine),
        // where it is specialized: in a module of its own it ran unspecialized, looking up and
        // demangling generic metadata on every turn.
        .target(name: "ReachabilityLoop", dependencies: ["ReachabilitySystem"]),
        // The engine per namespace and its poll loop: a runner over parts that own their state; it
        // publishes paths to a subscriber protocol and names no monitor type.
        .target(
            name: "ReachabilityEngine",
            dependencies: [
                "ReachabilityLoop", "ReachabilitySystem", "ReachabilityModel", "ReachabilityNetlink",
                "ReachabilityEvaluation", "ReachabilityResolution",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The connectivity prober: one per namespace and probe, on an engine's loop, probing for
        // subscribers it knows by a protocol, never as monitors.
        .target(
            name: "ReachabilityDelivery",
            dependencies: [
                "ReachabilityEngine", "ReachabilityLoop", "ReachabilitySystem", "ReachabilityModel",
                "ReachabilityConnectivity",
            ]
        ),
        .target(
            name: "ReachabilityProbing",
            dependencies: [
                "ReachabilityDelivery", "ReachabilityLoop", "ReachabilitySystem", "ReachabilityModel", "ReachabilityNetlink",
                "ReachabilityResolution", "ReachabilityConnectivity",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // PathMonitor and its delivery, over the engine and the prober; no Foundation, so a static
        // binary carries none of it.
        .target(
            name: "NetworkReachabilityCore",
            dependencies: [
                "ReachabilityEngine", "ReachabilityLoop", "ReachabilityDelivery", "ReachabilityProbing",
                "ReachabilitySystem", "ReachabilityModel", "ReachabilityNetlink", "ReachabilityEvaluation",
                "ReachabilityResolution", "ReachabilityConnectivity",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The module users import: the core re-exported, and ReachabilityManager, whose
        // `didChangeNotification` (api.md) is a Foundation `Notification.Name`.
        .target(name: "NetworkReachability", dependencies: ["NetworkReachabilityCore", "ReachabilitySystem"]),
        .target(name: "ReachabilityCompat", dependencies: ["NetworkReachability", "ReachabilityDelivery", "ReachabilitySystem"]),
        .target(name: "NetworkReachabilityTesting", dependencies: ["NetworkReachability", "ReachabilitySystem"]),
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
                "ReachabilitySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `--verbose`: the command bootstraps swift-log, which the library logs through.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "NetworkReachabilityTests",
            dependencies: ["NetworkReachability", "NetworkReachabilityCore", "NetworkReachabilityTesting", "ReachabilitySystem", "ReachabilityModel", "ReachabilityNetlink", "ReachabilityEvaluation", "ReachabilityResolution", "ReachabilityConnectivity", "ReachabilityLoop", "ReachabilityEngine", "ReachabilityDelivery", "ReachabilityProbing"]
        ),
        .testTarget(
            name: "ServiceTests",
            dependencies: [
                "NetworkReachabilityService",
                "NetworkReachabilityTesting",
                "ReachabilityCompat",
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "NetworkReachability", "NetworkReachabilityCore", "NetworkReachabilityTesting", "ReachabilityCompat", "SystemConfiguration",
                "ReachabilitySystem", "ReachabilityModel", "ReachabilityNetlink", "ReachabilityEvaluation", "ReachabilityResolution", "ReachabilityConnectivity",
                "ReachabilityLoop", "ReachabilityEngine", "ReachabilityDelivery", "ReachabilityProbing",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
