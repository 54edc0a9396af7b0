// swift-tools-version:6.1
// Benchmarks of NetworkReachability: a package of its own, so that users of the library never
// resolve benchmark dependencies. `swift package benchmark` runs the ordo-one suites under
// Benchmarks/; `nrx-bench` runs the scenarios that need whole processes (see ../BENCHMARKS.md).
import PackageDescription

let package = Package(
    name: "NetworkReachabilityBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "NetworkReachability", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Raw rtnetlink route changes inside a namespace, clocks, heap figures, namespace cleanup
        // that also runs from signal handlers.
        .target(name: "CBenchNetlink"),
        .target(
            name: "BenchSupport",
            dependencies: [
                "CBenchNetlink",
                .product(name: "NetworkReachability", package: "NetworkReachability"),
            ]
        ),
        // Whole-process scenarios (memory, 100k routes, churn, re-evaluation latency); JSON lines out.
        .executableTarget(
            name: "nrx-bench",
            dependencies: ["BenchSupport", "CBenchNetlink", .product(name: "NetworkReachability", package: "NetworkReachability")]
        ),
        // The ordo-one suite: `swift package benchmark`.
        .executableTarget(
            name: "ReachabilityBenchmarks",
            dependencies: [
                "BenchSupport",
                "CBenchNetlink",
                .product(name: "NetworkReachability", package: "NetworkReachability"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ReachabilityBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
