import Foundation
import RelayConfig
import Testing

/// The rendered defaults are a valid file that yields the defaults, commented or not, and
/// every key of a schema reaches its typed settings.
@Suite struct ConfigDefaultsTests {
    static let schemas: [(schema: ConfigSchema, build: @Sendable (String) throws -> any Equatable & Sendable, defaults: any Equatable & Sendable)] = [
        (PhoneConfiguration.schema, { try PhoneConfiguration(text: $0, path: "phone.toml") }, PhoneConfiguration.defaults),
        (WearableConfiguration.schema, { try WearableConfiguration(text: $0, path: "wearable.toml") }, WearableConfiguration.defaults),
    ]

    @Test(arguments: [0, 1])
    func theDefaultFileIsValidAndYieldsTheDefaults(index: Int) throws {
        let (schema, build, defaults) = Self.schemas[index]
        let text = schema.defaultFileText
        #expect(try build(text).isEqual(to: defaults))
        // Uncommenting every key must change nothing: the written defaults are the defaults.
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("#") && line.contains(" = ") && !line.hasPrefix("# ") ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        let file = try ConfigurationFile(text: uncommented, path: schema.fileName)
        let values = try schema.values(file: file, currentDirectory: "/")
        #expect(values == schema.defaults())
        // Comments are wrapped; joined again, each key's documentation must be there whole.
        let comments = text.replacingOccurrences(of: "\n# ", with: " ")
        for key in schema.keys {
            #expect(values.origin(of: key.path) != .defaultValue, "\(key.path) is missing from the default file")
            #expect(comments.contains(key.summary), "\(key.path)'s documentation is in the file")
            #expect(comments.contains("Allowed: \(key.rule.allowedDescription)."), "\(key.path)'s allowed values are in the file")
        }
    }

    @Test(arguments: [0, 1])
    func everyKeyReachesTheSettings(index: Int) throws {
        let (schema, build, defaults) = Self.schemas[index]
        for key in schema.keys {
            let section = key.section.isEmpty ? "" : "[\(key.section)]\n"
            let companion = Self.companions[key.path].map { "\n" + $0 } ?? ""
            let text = section + TOMLWriter.key(key.name) + " = " + TOMLWriter.inline(Self.otherValue(for: key)) + companion
            // The companion alone, when that is a valid file (a quiet hours' end is not); else the defaults.
            let baseline: any Equatable & Sendable = companion.isEmpty ? defaults : (try? build(section + companion)) ?? defaults
            #expect(try !build(text).isEqual(to: baseline), "setting \(key.path) changed nothing: \(text)")
        }
    }

    @Test func keysAreInTheirSectionsAndNamedOnce() {
        for schema in [PhoneConfiguration.schema, WearableConfiguration.schema] {
            for section in schema.sections {
                for key in section.keys { #expect(key.section == section.name, "\(key.path) is listed under [\(section.name)]") }
            }
            #expect(Set(schema.keys.map(\.path)).count == schema.keys.count)
            let flags = schema.keys.compactMap(\.flag)
            #expect(Set(flags).count == flags.count, "two keys share a flag")
        }
    }

    /// What a key needs beside it in its section (a rule between keys), when it is set alone.
    static let companions = [
        "haptics.vibrator_line": "vibrator = \"/dev/input/relay-vibrator\"",
        "quiet_hours.start": "end = \"07:00\"", "quiet_hours.end": "start = \"23:00\"",
        "quiet_hours.weekdays": "start = \"22:00\"\nend = \"07:00\"",
    ]

    /// A valid value other than the default, whatever the key's rule.
    static func otherValue(for key: AnyConfigKey) -> TOMLValue {
        switch key.rule {
        case .integer(let range, _):
            // One above the default keeps the rules between keys satisfied.
            guard case .integer(let value) = key.defaultValue, range.contains(Int(value) + 1) else {
                return .integer(Int64(range.lowerBound))
            }
            return .integer(value + 1)
        case .boolean:
            return .boolean(key.defaultValue != .boolean(true))
        case .choice(let words):
            return .string(words.first { .string($0) != key.defaultValue } ?? "")
        case .bus:
            return .string("unix:path=/run/other")
        case .paths:
            return .array([.string("/dev/input/event7")])
        case .names:
            return .array([.string("relay-keys")])
        case .weekdays:
            return .array([.string("sat"), .string("sun")])
        case .timeOfDay:
            return .string("22:00")
        case .keyCodes:
            // One more code, which no other key has by default.
            guard case .array(let codes) = key.defaultValue else { return .array([.string("KEY_PROG1")]) }
            return .array(codes + [.string("KEY_PROG1")])
        case .endpoint:
            return .string("unix:/run/relay/peer.sock")
        case .timeZone:
            return .string("Asia/Tokyo")
        case .languageTag:
            return .string("de-DE")
        case .path:
            return .string("/var/lib/relay-test")
        case .text:
            return .string("Test device")
        }
    }
}

extension Equatable {
    /// Equality with a value of unknown type.
    func isEqual(to other: any Equatable) -> Bool {
        (other as? Self) == self
    }
}
