import Foundation
import RelayConfig
import Testing

/// The fuzzer's seeds start where they should: the valid ones are valid, the broken ones
/// are broken, so the fuzzer explores both sides of every check.
@Suite struct FuzzSeedTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus/FuzzConfig")

    private func text(_ name: String) throws -> String {
        try String(contentsOf: Self.corpus.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func validSeedsAreValid() throws {
        for name in ["phone-defaults.toml", "phone-uncommented.toml", "phone-custom.toml"] {
            #expect(throws: Never.self, "\(name)") { try PhoneConfiguration(text: text(name), path: name) }
        }
        for name in ["wearable-defaults.toml", "wearable-uncommented.toml", "wearable-custom.toml"] {
            #expect(throws: Never.self, "\(name)") { try WearableConfiguration(text: text(name), path: name) }
        }
        for name in ["syntax-zoo.toml", "deep.toml"] {
            #expect(throws: Never.self, "\(name)") { try TOML.parse(text(name), file: name) }
        }
        let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent("crlf-bom.toml")))
        #expect(throws: Never.self) { try TOML.parse(bytes: bytes) }
        #expect(try PhoneConfiguration(text: text("phone-custom.toml"), path: "/etc/relay/phone.toml").peer
            == "unix:/etc/relay/wearable-link.sock")
    }

    @Test func brokenSeedsAreBroken() throws {
        #expect(throws: ConfigurationError.self) { try PhoneConfiguration(text: text("mistakes.toml"), path: "m.toml") }
        for name in ["redefinitions.toml", "date.toml", "arrays-of-tables.toml"] {
            #expect(throws: TOMLSyntaxError.self, "\(name)") { try TOML.parse(text(name), file: name) }
        }
    }
}
