import Foundation
import RelayTestSupport
import Testing

/// The module layers of Docs/ARCHITECTURE.md (DESIGN.md §2), read from the package itself
/// (`swift package describe`): dependencies point down or sideways, never up, and every module
/// a file imports is one its target declares (not one that comes in through another's).
@Suite struct LayerTests {
    /// Each target's layer, as Docs/ARCHITECTURE.md's table gives it (its tools and tests
    /// columns are `support` here). A new target must be given one.
    static let layers: [String: Layer] = [
        "CBluetooth": .bridges, "CDBus": .bridges, "CFreeType": .bridges, "CHarfBuzz": .bridges, "CFriBidi": .bridges, "CICU": .bridges, "CPNG": .bridges, "CJPEG": .bridges, "CGPIOD": .bridges,
        "CRelayShim": .bridges,
        "RelayCore": .model, "RelayExamples": .model,
        "RelayNoise": .wire, "RelayWire": .wire, "RelayLink": .wire,
        "RelayTransport": .adapters, "RelayStore": .adapters, "RelayDBus": .adapters, "RelayDisplay": .adapters,
        "RelayText": .adapters, "RelayInput": .adapters, "RelayHaptics": .adapters, "RelayBluetooth": .adapters,
        "RelayFreedesktop": .adapters, "RelayFreedesktopDBus": .adapters, "RelayLockWatch": .adapters, "RelayControl": .adapters, "RelaySystem": .adapters,
        "RelayConfig": .adapters,
        "RelayLinkRuntime": .agents, "PhoneAgent": .agents, "WearableAgent": .agents, "WearableUI": .agents, "RelayConformance": .agents,
        "RelayCLI": .support, "RelayTestSupport": .support, "RelayFuzzing": .support,
        "relay-phone": .executables, "relay-wearable": .executables, "relayctl": .executables,
        "relay-conformance": .executables, "relay-bench": .executables,
    ]

    /// DESIGN.md §2's layers, in order; the fuzzers are executables.
    enum Layer: Int, Comparable {
        case bridges, model, wire, adapters, agents, support, executables
        static func < (lhs: Layer, rhs: Layer) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What a product ships for users may not lean on the testing library.
    static let shipped: Set<String> = ["relay-phone", "relay-wearable", "relayctl", "relay-conformance"]

    /// Modules of the toolchain and the system, importable without a declaration.
    static let systemModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Dispatch",
        "Synchronization", "Testing", "XCTest", "_Concurrency",
    ]

    @Test func dependenciesPointDownOrSideways() async throws {
        let upward = Self.wrongEdges(in: try await Self.package().targets)
        #expect(upward.isEmpty, "\(upward.joined(separator: "\n"))")
    }

    @Test func theCheckSeesAnUpwardEdge() {
        let targets = [
            Target(name: "RelayCore", type: "library", path: "Sources/RelayCore", targetDependencies: ["PhoneAgent"]),
            Target(name: "relay-phone", type: "executable", path: "Sources/relay-phone", targetDependencies: ["RelayTestSupport"]),
            Target(name: "RelayNew", type: "library", path: "Sources/RelayNew", targetDependencies: []),
            Target(name: "PhoneAgent", type: "library", path: "Sources/PhoneAgent", targetDependencies: ["RelayCore"]),
        ]
        #expect(Self.wrongEdges(in: targets).count == 3)
    }

    /// Dependencies that point up a layer, shipped products on the testing library, and targets
    /// with no layer.
    static func wrongEdges(in targets: [Target]) -> [String] {
        var wrong: [String] = []
        for target in targets where target.type != "test" {
            let layer = layers[target.name] ?? (target.path.hasPrefix("Fuzz/") ? .executables : nil)
            guard let layer else {
                wrong.append("\(target.name) has no layer: give it one in LayerTests.layers (Docs/ARCHITECTURE.md lists them)")
                continue
            }
            for dependency in target.targetDependencies {
                guard let below = layers[dependency] else { continue }
                if below > layer { wrong.append("\(target.name) (\(layer)) depends on \(dependency) (\(below)), a layer above it") }
                if dependency == "RelayTestSupport", shipped.contains(target.name) {
                    wrong.append("\(target.name) ships, but depends on the testing library RelayTestSupport")
                }
            }
        }
        return wrong
    }

    /// The agents decide; the bus is the executables' and the adapters' business. An agent that
    /// could reach D-Bus would soon take bus types in its API (it once took `NotifyCall`).
    @Test func theAgentsReachNoBus() async throws {
        let targets = try await Self.package().targets
        for agent in ["PhoneAgent", "WearableAgent", "WearableUI", "RelayLinkRuntime"] {
            let reached = Self.reachable(from: agent, in: targets)
            // Only the Swift layer: CDBus comes in through the one C shim every adapter shares.
            #expect(!reached.contains("RelayDBus"), "\(agent) reaches RelayDBus")
        }
    }

    @Test func theCheckSeesAModuleReachedThroughAnother() {
        let targets = [
            Target(name: "PhoneAgent", type: "library", path: "Sources/PhoneAgent", targetDependencies: ["RelayFreedesktop"]),
            Target(name: "RelayFreedesktop", type: "library", path: "Sources/RelayFreedesktop", targetDependencies: ["RelayDBus"]),
            Target(name: "RelayDBus", type: "library", path: "Sources/RelayDBus", targetDependencies: ["CDBus"]),
        ]
        #expect(Self.reachable(from: "PhoneAgent", in: targets) == ["RelayFreedesktop", "RelayDBus", "CDBus"])
    }

    /// Every target `name` depends on, directly or through others.
    static func reachable(from name: String, in targets: [Target]) -> Set<String> {
        let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var reached: Set<String> = []
        var waiting = byName[name]?.targetDependencies ?? []
        while let next = waiting.popLast() {
            guard reached.insert(next).inserted else { continue }
            waiting += byName[next]?.targetDependencies ?? []
        }
        return reached
    }

    @Test func everyImportIsDeclared() async throws {
        let root = Self.packageRoot
        var undeclared: [String] = []
        for target in try await Self.package().targets {
            let allowed = Set(target.targetDependencies + target.productDependencies + [target.name]).union(Self.systemModules)
            let files = FileManager.default.enumerator(atPath: root + "/" + target.path)?.compactMap { $0 as? String } ?? []
            for file in files.sorted() where file.hasSuffix(".swift") {
                let source = try String(contentsOfFile: root + "/" + target.path + "/" + file, encoding: .utf8)
                for module in Self.importedModules(in: source) where !allowed.contains(module) {
                    undeclared.append("\(target.path)/\(file) imports \(module), which \(target.name) does not declare")
                }
            }
        }
        #expect(undeclared.isEmpty, "\(undeclared.joined(separator: "\n"))")
    }

    @Test func theCheckSeesAnImport() {
        // Joined here, so that the scan of this very file does not take them for its imports.
        let source = [
            "import Foundation", "public import RelayWire", "@testable import WearableAgent", "  internal import struct GRDB.Row",
            "// import NotThis",
        ].joined(separator: "\n")
        #expect(Self.importedModules(in: source) == ["Foundation", "RelayWire", "WearableAgent", "GRDB"])
    }

    /// The modules `source` imports, one per import line (comments skipped).
    static func importedModules(in source: String) -> [String] {
        let pattern = /^\s*(?:@\w+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)/
        return source.split(separator: "\n").compactMap { line in
            (try? pattern.firstMatch(in: line)).flatMap { $0.map { String($0.1) } }
        }
    }

    /// The folder holding Package.swift (this file is Tests/ArchitectureTests/LayerTests.swift).
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    struct Package: Decodable {
        let targets: [Target]
    }

    struct Target: Decodable {
        let name: String
        let type: String
        let path: String
        let targetDependencies: [String]
        let productDependencies: [String]

        init(name: String, type: String, path: String, targetDependencies: [String], productDependencies: [String] = []) {
            self.name = name
            self.type = type
            self.path = path
            self.targetDependencies = targetDependencies
            self.productDependencies = productDependencies
        }

        enum CodingKeys: String, CodingKey {
            case name, type, path
            case targetDependencies = "target_dependencies"
            case productDependencies = "product_dependencies"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            type = try container.decode(String.self, forKey: .type)
            path = try container.decode(String.self, forKey: .path)
            targetDependencies = try container.decodeIfPresent([String].self, forKey: .targetDependencies) ?? []
            productDependencies = try container.decodeIfPresent([String].self, forKey: .productDependencies) ?? []
        }
    }

    /// `swift package describe --type json`, run beside the test run: `--ignore-lock`, since the
    /// running `swift test` holds the package's lock and describing only reads.
    static func package() async throws -> Package {
        let describe = try ChildProcess(
            "/usr/bin/env", ["swift", "package", "--ignore-lock", "--package-path", packageRoot, "describe", "--type", "json"])
        var output = ""
        for await line in describe.lines { output += line + "\n" }
        let status = await describe.wait()
        guard status == 0 else {
            throw DescribeFailed(status: status)
        }
        return try JSONDecoder().decode(Package.self, from: Data(output.utf8))
    }

    struct DescribeFailed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "swift package describe exited \(status); is swift on PATH?" }
    }
}
