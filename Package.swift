// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Tick",
    // Synchronization (Atomic) and Int128 need these OS versions on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tick", targets: ["Tick"]),
        .library(name: "TickTesting", targets: ["TickTesting"]),
        .library(name: "TickIndicators", targets: ["TickIndicators"]),
        .executable(name: "marbles", targets: ["marbles"]),
    ],
    targets: [
        .target(name: "Tick"),
        .target(name: "TickTesting", dependencies: ["Tick", "TickRuntimeHooks"]),
        // C, for one load-time initializer: installs TickTesting's Concurrency
        // hooks before any test code runs (see its source).
        .target(name: "TickRuntimeHooks"),
        .target(name: "TickIndicators", dependencies: ["Tick"]),
        // The `marbles` tool's commands (`MarblesCLI`), runnable in-process by
        // its tests and the fuzzer; not part of a product, so a project that
        // uses TickTesting never compiles it (Docs/Performance.md, "Build time").
        .target(name: "MarblesCommand", dependencies: ["TickTesting"]),
        .executableTarget(name: "marbles", dependencies: ["MarblesCommand"]),
        // A libFuzzer target for the marble parser (a replay tool when built normally).
        .executableTarget(
            name: "marble-fuzzer", dependencies: ["Tick", "TickTesting", "MarblesCommand"], path: "Tests/Fuzz/MarbleFuzzer"),
        .executableTarget(
            name: "tick-benchmarks", dependencies: ["Tick", "TickTesting", "AsyncWorkloads"],
            path: "Benchmarks/TickBenchmarks"),
        // Async work no TestScheduler drives, measured with TickTesting linked
        // (tick-benchmarks --workload) and without (tick-benchmarks-control),
        // in the same run: scripts/invisible.sh, Docs/Performance.md.
        .target(name: "AsyncWorkloads", path: "Benchmarks/AsyncWorkloads"),
        .executableTarget(name: "tick-benchmarks-control", dependencies: ["AsyncWorkloads"], path: "Benchmarks/Control"),
        .testTarget(name: "TickTests", dependencies: ["Tick", "TickTesting"]),
        .testTarget(name: "TickTestingTests", dependencies: ["Tick", "TickTesting"]),
        .testTarget(name: "MarblesCommandTests", dependencies: ["TickTesting", "MarblesCommand"]),
        .testTarget(name: "TickIndicatorsTests", dependencies: ["Tick", "TickTesting", "TickIndicators"]),

        // Docs as tests (Docs/DocsAsTests.md): every Swift block in Docs/*.md and
        // README.md is compiled and run by `swift test`, one test per page.
        .target(name: "DocTestKit"),
        .executableTarget(name: "DocTestGenerator", dependencies: ["DocTestKit"]),
        .plugin(name: "DocTestsPlugin", capability: .buildTool(), dependencies: ["DocTestGenerator"]),
        .testTarget(
            name: "DocTests",
            dependencies: ["Tick", "TickTesting", "TickIndicators", "DocTestKit"],
            exclude: ["Fixtures"],
            // A page's file sees only what the page imports, members of
            // extensions included (Docs/DocsAsTests.md).
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")],
            plugins: ["DocTestsPlugin"]),
        .testTarget(name: "DocTestKitTests", dependencies: ["DocTestKit"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
