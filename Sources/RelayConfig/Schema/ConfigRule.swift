import Foundation
import RelaySystem

/// What a key accepts. The same rule checks file values and flag values, and describes
/// itself for the generated documentation, so the two cannot disagree.
public enum ConfigRule: Sendable, Hashable {
    /// Any text without control characters, up to a number of characters.
    case text(maximumLength: Int)
    /// A whole number in a range, with the unit the documentation names ("seconds").
    case integer(ClosedRange<Int>, unit: String?)
    /// `true` or `false`.
    case boolean
    /// One of a few words.
    case choice([String])
    /// A file system path; empty means the agent's default. Relative paths in a file are
    /// taken from the file's folder, on the command line from the current directory.
    case path
    /// An array of paths, each as `.path` but never empty.
    case paths
    /// An array of names (text without control characters, 1 to 128 characters each), such as
    /// the names drivers give input devices; may be empty.
    case names
    /// Empty, or a time of day `HH:MM` (00:00 to 23:59).
    case timeOfDay
    /// An array of weekdays, each `mon` … `sun`; may be empty.
    case weekdays
    /// An array of Linux key codes, each a name (`KEY_UP`, `BTN_0`: ``LinuxKeyCodes``) or a
    /// number; may be empty.
    case keyCodes
    /// Where the other agent is: empty (the default), `unix:PATH`, `tcp:HOST:PORT` or
    /// `rfcomm:ADDRESS/CHANNEL`; the transport checks the details when it starts.
    case endpoint
    /// A D-Bus bus: the well-known names it may be (`session`, `system`) or an address
    /// such as `unix:path=/run/dbus/system_bus_socket`.
    case bus(names: [String])
    /// Empty (the system's zone) or an IANA time zone name.
    case timeZone
    /// Empty (from the environment) or a language tag such as `en` or `pt-BR`.
    case languageTag

    /// The TOML type, for messages and the documentation.
    public var typeName: String {
        switch self {
        case .integer: "integer"
        case .boolean: "boolean"
        case .paths, .names, .keyCodes, .weekdays: "array of strings"
        default: "string"
        }
    }

    /// The allowed values in words: "1 to 60 seconds", "\"none\" or \"silent\"".
    public var allowedDescription: String {
        switch self {
        case .text(let maximum): "text of up to \(maximum) characters"
        case .integer(let range, let unit): "\(range.lowerBound) to \(range.upperBound)" + (unit.map { " " + $0 } ?? "")
        case .boolean: "true or false"
        case .choice(let words): Self.alternatives(words.map { TOMLWriter.quoted($0) })
        case .path: "a path (relative: from the file's folder)"
        case .paths: "paths (relative: from the file's folder)"
        case .names: "names of 1 to 128 characters"
        case .timeOfDay: "a time of day \"HH:MM\" (24-hour), or empty"
        case .weekdays: "weekdays: " + Self.alternatives(ConfigRule.weekdayNames.map { TOMLWriter.quoted($0) })
        case .keyCodes: "key code names such as \"KEY_UP\" or \"BTN_0\" (Hardware/README.md lists them), or their numbers"
        case .endpoint: "unix:PATH, tcp:HOST:PORT or rfcomm:ADDRESS/CHANNEL"
        case .bus(let names): Self.alternatives(names.map { TOMLWriter.quoted($0) } + ["a D-Bus address (unix:path=…)"])
        case .timeZone: "an IANA time zone name such as \"Europe/Berlin\""
        case .languageTag: "a language tag such as \"en\" or \"pt-BR\""
        }
    }

    /// Why `value` is not acceptable, or `nil` when it is.
    func problem(with value: TOMLValue) -> ConfigIssue? {
        switch (self, value) {
        case (.integer(let range, _), .integer(let number)):
            return Int(exactly: number).map(range.contains) == true ? nil : .notAllowed
        case (.integer, _):
            return .wrongType
        case (.boolean, .boolean):
            return nil
        case (.boolean, _):
            return .wrongType
        case (.paths, .array(let elements)):
            for element in elements {
                guard case .string(let path) = element else { return .wrongType }
                if path.isEmpty || !Self.isPlausiblePath(path) { return .notAllowed }
            }
            return nil
        case (.paths, _):
            return .wrongType
        case (.names, .array(let elements)):
            for element in elements {
                guard case .string(let name) = element else { return .wrongType }
                if name.isEmpty || !ConfigRule.text(maximumLength: 128).accepts(name) { return .notAllowed }
            }
            return nil
        case (.names, _):
            return .wrongType
        case (.weekdays, .array(let elements)):
            for element in elements {
                guard case .string(let day) = element else { return .wrongType }
                if !Self.weekdayNames.contains(day) { return .notAllowed }
            }
            return nil
        case (.weekdays, _):
            return .wrongType
        case (.keyCodes, .array(let elements)):
            for element in elements {
                switch element {
                case .string(let word): if LinuxKeyCodes.code(word) == nil { return .notAllowed }
                case .integer(let number): if LinuxKeyCodes.code(String(number)) == nil { return .notAllowed }
                default: return .wrongType
                }
            }
            return nil
        case (.keyCodes, _):
            return .wrongType
        case (_, .string(let text)):
            return accepts(text) ? nil : .notAllowed
        default:
            return .wrongType
        }
    }

    private func accepts(_ text: String) -> Bool {
        switch self {
        case .text(let maximum):
            return text.count <= maximum && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
        case .choice(let words):
            return words.contains(text)
        case .path:
            return Self.isPlausiblePath(text)
        case .endpoint:
            guard !text.isEmpty else { return true }
            return ["unix:", "tcp:", "rfcomm:"].contains { text.hasPrefix($0) && text.count > $0.count }
                && Self.isPlausiblePath(text)
        case .bus(let names):
            // An address is `transport:key=value,…`; the bus library checks the rest.
            return names.contains(text) || (text.contains(":") && text.contains("=") && Self.isPlausiblePath(text))
        case .timeZone:
            // Only the characters of zone names, and no "..", before Foundation looks the
            // name up in the system's zone files.
            let nameLike = text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || "0123456789/_+-".unicodeScalars.contains($0)) }
            return text.isEmpty || (text.count <= 64 && nameLike && !text.contains("..") && TimeZone(identifier: text) != nil)
        case .languageTag:
            return text.isEmpty || Self.isLanguageTag(text)
        case .timeOfDay:
            return text.isEmpty || Self.minutes(ofTimeOfDay: text) != nil
        case .integer, .boolean, .paths, .names, .keyCodes, .weekdays:
            return false
        }
    }

    /// The weekdays' names, Sunday first, as `Calendar` numbers them from 1.
    public static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// `HH:MM` as minutes after midnight, or `nil` when it is not a time of day.
    public static func minutes(ofTimeOfDay text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { ("0"..."9").contains($0) } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// No NUL (the system cannot take it) and no longer than the system's path limit.
    private static func isPlausiblePath(_ text: String) -> Bool {
        text.utf8.count <= 4096 && !text.utf8.contains(0)
    }

    /// `en`, `pt-BR`, `zh_Hant_TW`: two or three letters, then subtags of letters and digits.
    private static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }
    }

    static func alternatives(_ items: [String]) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// How a value breaks its rule.
enum ConfigIssue: Sendable, Hashable {
    /// The TOML type is wrong (a string where a number belongs).
    case wrongType
    /// The type is right, the value is not among the allowed ones.
    case notAllowed
}
