import Glibc
import Synchronization

/// A POSIX extended regular expression (glibc's `regcomp`/`regexec`), matched against bytes
/// in the C locale. Chosen over a backtracking engine because without back-references its
/// matching time grows with the text, not exponentially with the pattern: a filter rule from
/// a user's file cannot stall the phone. Patterns with back-references are refused.
public final class POSIXRegex: Sendable {
    /// The compiled pattern; `regexec` is called with the lock held (it computes, never waits).
    private let compiled: Mutex<regex_t>
    /// The pattern as written.
    public let pattern: String

    /// Why a pattern is not one Relay takes.
    public struct PatternError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, in words.
        public var description: String
    }

    /// The longest pattern taken, in bytes.
    public static let maximumPatternBytes = 512

    /// Compiles `pattern` (case-insensitive for ASCII letters with `ignoringCase`).
    public init(_ pattern: String, ignoringCase: Bool = false) throws(PatternError) {
        guard pattern.utf8.count <= Self.maximumPatternBytes else {
            throw PatternError(description: "the pattern is \(pattern.utf8.count) bytes long, more than \(Self.maximumPatternBytes)")
        }
        if let reference = Self.backReference(in: pattern) {
            throw PatternError(
                description: "the pattern refers back to a group (\(reference)), which can make matching take very long; write the text out instead")
        }
        var regex = regex_t()
        let flags = REG_EXTENDED | REG_NOSUB | (ignoringCase ? REG_ICASE : 0)
        let result = regcomp(&regex, pattern, flags)
        guard result == 0 else {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(result, &regex, &buffer, buffer.count)
            regfree(&regex)
            throw PatternError(description: String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.pattern = pattern
        compiled = Mutex(regex)
    }

    deinit {
        compiled.withLock { regfree(&$0) }
    }

    /// Whether `text` contains a match.
    public func matches(_ text: String) -> Bool {
        compiled.withLock { regex in regexec(&regex, text, 0, nil, 0) == 0 }
    }

    /// `\1` … `\9` outside a bracket expression, as written.
    private static func backReference(in pattern: String) -> String? {
        var escaped = false
        var inBracket = false
        for character in pattern {
            if escaped {
                escaped = false
                if !inBracket, let digit = character.wholeNumberValue, (1...9).contains(digit) { return "\\\(character)" }
                continue
            }
            switch character {
            case "\\" where !inBracket: escaped = true
            case "[": inBracket = true
            case "]": inBracket = false
            default: break
            }
        }
        return nil
    }
}
