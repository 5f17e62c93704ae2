// swift-tools-version:6.1
//
// Relay: a notification bridge between a Linux phone board and a Linux wearable.
// The targets follow the layers in Docs/ARCHITECTURE.md; dependencies point downwards only:
//   executables → agents → adapters → sync/wire → model → (Foundation)
//   adapters → C bridges → system libraries (pkg-config)
import PackageDescription

let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// How the agents are linked in release builds on Linux (issue #6; Docs/ARCHITECTURE.md): most of
// their resident memory is pages of code and of relocated data, not notifications. The builds
// that are measured or shipped go through scripts/release-build.sh, which adds a static Swift
// runtime and Foundation (only what is used gets linked) and a section per function.
// - `--symbol-ordering-file`: the functions an agent runs once it is up (Linking/<agent>.order,
//   written by scripts/code-order.sh) are placed together, in the order it first ran them, so
//   the code it keeps running fills a few dense pages instead of touching pages all over.
//   Functions the file does not name (new ones, renamed ones) follow; nothing breaks.
// - lld's `-z pack-relative-relocs` (glibc ≥ 2.36): the ~110,000 relative relocations take
//   ~40 KB instead of 2.6 MB, which the loader reads in full at every start.
// - `--no-export-dynamic`: a static-stdlib link exports every symbol; nothing looks them up,
//   and the table (~2.5 MB) is read at start.
// Debug builds and the tests are linked as before.
func agentLinking(_ agent: String) -> [LinkerSetting] {
    [
        .unsafeFlags(
            [
                "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Linking/\(agent).order",
                "-Xlinker", "--no-warn-symbol-ordering",
            ],
            .when(platforms: [.linux], configuration: .release))
    ]
}

let package = Package(
    name: "Relay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "relay-phone", targets: ["relay-phone"]),
        .executable(name: "relay-wearable", targets: ["relay-wearable"]),
        .executable(name: "relayctl", targets: ["relayctl"]),
        .executable(name: "relay-conformance", targets: ["relay-conformance"]),
        .library(name: "RelayCore", targets: ["RelayCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // MARK: C bridges (system libraries found by pkg-config) and the one C shim.
        .systemLibrary(
            name: "CDBus", path: "Sources/Bridges/CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CBluetooth", path: "Sources/Bridges/CBluetooth", pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/Bridges/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/Bridges/CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFriBidi", path: "Sources/Bridges/CFriBidi", pkgConfig: "fribidi",
            providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(
            name: "CICU", path: "Sources/Bridges/CICU", pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/Bridges/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CJPEG", path: "Sources/Bridges/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(
            name: "CGPIOD", path: "Sources/Bridges/CGPIOD", pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]),
        .target(
            name: "CRelayShim", dependencies: ["CDBus", "CBluetooth", "CJPEG", "CICU"],
            path: "Sources/Bridges/CRelayShim"),

        // MARK: Model: notification content, requests, triggers, categories, responses.
        .target(name: "RelayCore", swiftSettings: strictSwift),
        .target(name: "RelayExamples", dependencies: ["RelayCore"], swiftSettings: strictSwift),

        // MARK: Sync and wire: the wire format, the Noise session, the link protocol.
        .target(
            name: "RelayWire",
            dependencies: ["RelayCore", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            swiftSettings: strictSwift),
        .target(
            name: "RelayNoise",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSwift),

        .target(
            name: "RelayLink",
            dependencies: [
                "RelayWire", "RelayNoise", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strictSwift),

        // MARK: Adapters: D-Bus over libdbus-1.
        .target(name: "RelayDBus", dependencies: ["CDBus", "CRelayShim", "RelaySystem"], swiftSettings: strictSwift),

        // MARK: Adapters: system calls, transports between the agents, the link simulator.
        .target(name: "RelaySystem", dependencies: ["CRelayShim"], swiftSettings: strictSwift),
        .target(
            name: "RelayTransport",
            dependencies: [
                "RelayCore", "RelayWire", "RelaySystem", "CBluetooth",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSwift),

        // MARK: Adapters: Bluetooth through BlueZ (profiles, agent, discovery; Docs/BLUETOOTH.md).
        .target(
            name: "RelayBluetooth", dependencies: ["RelayDBus", "RelayTransport", "RelaySystem", "CBluetooth", "CRelayShim"],
            swiftSettings: strictSwift),

        // MARK: Adapters: state on disk.
        .target(
            name: "RelayStore",
            dependencies: [
                "RelaySystem", "RelayLink", "RelayWire", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift),

        // MARK: Adapters: org.freedesktop.Notifications on D-Bus.
        .target(name: "RelayFreedesktop", dependencies: ["RelayCore"], swiftSettings: strictSwift),
        .target(name: "RelayFreedesktopDBus", dependencies: ["RelayCore", "RelayDBus", "RelayFreedesktop"], swiftSettings: strictSwift),

        // MARK: Adapters: the phone's lock sources on D-Bus (logind, screensavers).
        .target(name: "RelayLockWatch", dependencies: ["RelayDBus"], swiftSettings: strictSwift),

        // MARK: Adapters: the wearable's display, text, input and haptics.
        .target(name: "RelayDisplay", dependencies: ["CPNG", "CRelayShim", "RelaySystem"], swiftSettings: strictSwift),
        .target(name: "RelayText", dependencies: ["CFreeType", "CHarfBuzz", "CFriBidi", "CRelayShim", "RelayDisplay"], swiftSettings: strictSwift),
        .target(name: "RelayInput", dependencies: ["CRelayShim", "RelaySystem"], swiftSettings: strictSwift),
        .target(name: "RelayHaptics", dependencies: ["CGPIOD", "CRelayShim", "RelayCore", "RelaySystem"], swiftSettings: strictSwift),

        // MARK: Adapters: configuration files (TOML) and their schemas (Docs/CONFIGURATION.md).
        .target(name: "RelayConfig", dependencies: ["RelaySystem"], swiftSettings: strictSwift),

        // MARK: Adapters: the agents' control sockets (Docs/CONTROL.md).
        .target(name: "RelayControl", dependencies: ["RelaySystem"], swiftSettings: strictSwift),

        // MARK: Agents: running the link over a connection.
        .target(
            name: "RelayLinkRuntime",
            dependencies: ["RelayLink", "RelayWire", "RelayTransport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift),

        // MARK: Agents: the wearable's user interface as a state machine and its screens.
        .target(
            name: "WearableUI", dependencies: ["RelayCore", "RelayDisplay", "RelayText"],
            swiftSettings: strictSwift),
        // The wearable's replica of the phone's centre, its link and its outbox of events.
        .target(
            name: "WearableAgent",
            dependencies: [
                "RelayCore", "RelayWire", "RelayLink", "RelayLinkRuntime", "RelayStore", "RelayTransport", "WearableUI",
                "RelayDisplay", .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSwift),
        // The phone's notification centre as a state machine; D-Bus stays in the executable.
        .target(
            name: "PhoneAgent",
            dependencies: [
                "RelayCore", "RelayFreedesktop", "RelayWire", "RelayLink", "RelayLinkRuntime", "RelayStore", "RelayTransport",
                "RelayDisplay", "RelaySystem", .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSwift),

        // MARK: Executables and what they share.
        .target(
            name: "RelayCLI",
            dependencies: [
                "RelayCore", "RelaySystem", "RelayConfig", "RelayControl", "RelayStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift),
        .executableTarget(
            name: "relay-phone",
            dependencies: ["RelayTransport", 
                "RelayBluetooth",
                "RelayCore", "RelayCLI", "RelayConfig", "RelayControl", "RelayDBus", "RelayFreedesktop", "RelayFreedesktopDBus", "RelayLockWatch",
                "RelayLinkRuntime", "RelayStore", "RelaySystem", "RelayWire", "PhoneAgent",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift, linkerSettings: agentLinking("relay-phone")),
        .executableTarget(
            name: "relay-wearable",
            dependencies: ["RelayDBus", 
                "RelayBluetooth",
                "RelayCore", "RelayCLI", "RelayConfig", "RelayControl", "RelayDisplay", "RelayHaptics", "RelayInput", "RelayText", "RelaySystem",
                "RelayLinkRuntime", "RelayStore", "RelayTransport", "RelayWire", "WearableAgent", "WearableUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift, linkerSettings: agentLinking("relay-wearable")),
        .executableTarget(
            name: "relayctl",
            dependencies: [
                "RelayBluetooth",
                "RelayCore", "RelayExamples", "RelayControl", "RelayDBus", "RelayConfig", "RelayDisplay", "RelayHaptics", "RelayInput",
                "RelayStore", "RelaySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSwift),

        // MARK: Checking an implementation of the protocol (Docs/PROTOCOL.md, "Checking an implementation").
        .target(
            name: "RelayConformance",
            dependencies: [
                "RelayNoise", "RelayWire", "RelayTransport", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift),
        .executableTarget(
            name: "relay-conformance",
            dependencies: ["RelayConformance", "RelayTransport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strictSwift),
        .executableTarget(
            name: "relay-bench",
            dependencies: [
                "RelayCore", "RelayExamples", "RelayWire", "RelayLink", "RelayTransport", "WearableUI",
                "RelayTestSupport", "RelayDBus", "RelayControl", "RelayDisplay", "RelaySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: strictSwift),

        // MARK: Fuzz targets: replay commands normally, libFuzzer targets with -DFUZZING (make fuzz).
        .target(name: "RelayFuzzing", path: "Fuzz/RelayFuzzing", swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzFrameDecoder", dependencies: ["RelayFuzzing", "RelayWire"], path: "Fuzz/FuzzFrameDecoder",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzHandshake", dependencies: ["RelayFuzzing", "RelayLink", "RelayWire"], path: "Fuzz/FuzzHandshake",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzEnvelope", dependencies: ["RelayFuzzing", "RelayWire", "RelayCore"], path: "Fuzz/FuzzEnvelope",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzNotifyCall", dependencies: ["RelayFuzzing", "RelayFreedesktop", "RelayFreedesktopDBus", "RelayDBus", "RelayCore"],
            path: "Fuzz/FuzzNotifyCall", swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzConfig", dependencies: ["RelayFuzzing", "RelayConfig"], path: "Fuzz/FuzzConfig",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzPushPayload", dependencies: ["RelayFuzzing", "RelayCore"], path: "Fuzz/FuzzPushPayload",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzReplica", dependencies: ["RelayCore", "RelayFuzzing", "RelayWire", "WearableAgent"], path: "Fuzz/FuzzReplica",
            swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzImage", dependencies: ["RelayFuzzing", "RelayDisplay"], path: "Fuzz/FuzzImage", swiftSettings: strictSwift),
        .executableTarget(
            name: "FuzzText", dependencies: ["RelayFuzzing", "RelayDisplay", "RelayText"], path: "Fuzz/FuzzText", swiftSettings: strictSwift),

        // MARK: Tests.
        .testTarget(name: "RelayCoreTests", dependencies: ["RelayCore", "RelayExamples"], swiftSettings: strictSwift),
        .testTarget(
            name: "BridgeTests", dependencies: ["CDBus", "CBluetooth", "CFreeType", "CHarfBuzz", "CFriBidi", "CRelayShim"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "RelayCtlTests",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), "RelayTransport", 
                "relayctl", "relay-phone", "relay-wearable", "RelayConformance",
                "FuzzFrameDecoder", "FuzzHandshake", "FuzzEnvelope", "FuzzPushPayload", "FuzzConfig", "FuzzNotifyCall",
                "FuzzReplica", "FuzzImage", "FuzzText", "RelayTestSupport", "RelayDisplay", "RelayDBus", "RelayCore", "RelayStore",
                "PhoneAgent", "RelayBluetooth",
            ],
            swiftSettings: strictSwift),
        .testTarget(
            name: "PhoneAgentTests",
            dependencies: [
                "RelayCore", "RelayWire", "PhoneAgent", "RelayDisplay", "RelayStore", "RelayFreedesktop",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift),
        .testTarget(name: "RelayFreedesktopTests", dependencies: ["RelayCore", "RelayDBus", "RelayFreedesktop", "RelayFreedesktopDBus"], swiftSettings: strictSwift),
        .testTarget(
            name: "RelayLockWatchTests", dependencies: ["RelayDBus", "RelayLockWatch", "RelayTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "RelayLinkRuntimeTests",
            dependencies: ["RelayLink", "RelayTransport", "RelayWire", 
                "RelayCore", "RelayLinkRuntime", "RelaySystem", "RelayTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSwift),
        .testTarget(name: "RelayConfigTests", dependencies: ["RelayConfig"], swiftSettings: strictSwift),
        .testTarget(
            name: "RelayStoreTests", dependencies: ["RelayWire", "RelayStore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictSwift),
        .testTarget(
            name: "WearableAgentTests", dependencies: [.product(name: "Logging", package: "swift-log"), "RelayCore", "RelayLinkRuntime", "RelayStore", "RelayWire", "WearableUI", "WearableAgent", "RelayTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "AgentLinkTests",
            dependencies: ["RelayCore", "RelayLink", "RelayStore", "RelayTransport", "RelayWire", "WearableUI", 
                "PhoneAgent", "WearableAgent", "RelayLinkRuntime", "RelayTestSupport", "RelayDisplay", "RelayConformance",
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSwift),
        .testTarget(name: "RelaySystemTests", dependencies: ["RelaySystem"], swiftSettings: strictSwift),
        // Fixtures are read from the source tree (#filePath), not bundled.
        .testTarget(
            name: "RelayDisplayTests", dependencies: ["RelayDisplay", "RelaySystem"], exclude: ["Fixtures"],
            swiftSettings: strictSwift),
        .testTarget(name: "RelayTextTests", dependencies: ["RelayDisplay", "RelayText"], swiftSettings: strictSwift),
        .testTarget(name: "RelayInputTests", dependencies: ["RelayInput", "RelaySystem"], swiftSettings: strictSwift),
        .testTarget(name: "RelayHapticsTests", dependencies: ["RelayCore", "RelayHaptics", "RelaySystem"], swiftSettings: strictSwift),
        .testTarget(
            name: "WearableUITests", dependencies: ["RelayCore", "RelayDisplay", "RelayText", "WearableUI", "RelayExamples", "RelayInput"],
            resources: [.copy("Golden")], swiftSettings: strictSwift),
        .testTarget(
            name: "RelayBluetoothTests",
            dependencies: ["RelayBluetooth", "RelayDBus", "RelayTransport", "RelayTestSupport", "CBluetooth"],
            exclude: ["Mock"], swiftSettings: strictSwift),
        .testTarget(
            name: "BluetoothEndToEndTests",
            dependencies: ["relayctl", "relay-phone", "relay-wearable", "RelayTestSupport", "RelayDBus"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "RelayCLITests",
            dependencies: [
                "RelayCLI", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift),
        .testTarget(name: "RelayDBusTests", dependencies: ["RelayDBus", "RelayTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "RelayControlTests", dependencies: ["RelayControl", "RelaySystem", "RelayTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(name: "RelayWireTests", dependencies: ["RelayCore", .product(name: "SwiftProtobuf", package: "swift-protobuf"), "RelayWire", "RelayExamples", "RelayTestSupport"], swiftSettings: strictSwift),
        .target(
            name: "RelayTestSupport", dependencies: ["RelayCore", "RelayLink", "RelayLinkRuntime", "RelayTransport", "RelayDBus", "RelayWire"],
            swiftSettings: strictSwift),
        .testTarget(
            name: "RelayTransportTests", dependencies: ["RelayCore", "RelayWire", "RelayTransport", "RelayLink", "RelaySystem", "RelayTestSupport"],
            swiftSettings: strictSwift),
        .testTarget(name: "ArchitectureTests", dependencies: ["RelayTestSupport"], swiftSettings: strictSwift),
        .testTarget(name: "RelayLinkTests", dependencies: [.product(name: "Crypto", package: "swift-crypto"), "RelayCore", "RelayNoise", "RelayWire", "RelayLink", "RelayTestSupport"], swiftSettings: strictSwift),
        .testTarget(
            name: "RelayNoiseTests", dependencies: [.product(name: "Crypto", package: "swift-crypto"), "RelayNoise"],
            resources: [.copy("Fixtures")], swiftSettings: strictSwift),
    ]
)
