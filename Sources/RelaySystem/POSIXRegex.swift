import Glibc
import Synchronization

/// A POSIX extended regular expression (glibc's `regcomp`/`regexec`), matched against bytes
/// in the C locale. Chosen over a backtracking engine because without back-references its
/// matching time grows with the text times the compiled pattern's size, not exponentially. So
/// that the size stays small, patterns are refused with back-references, with a counted
/// repeat over 100 (`a{101}`), with a counted repeat of a group that itself holds one
/// (`(a{9}){9}`: glibc copies the group for each count), with counts adding up over 1,000,
/// with a NUL byte, or over 512 bytes: a filter rule from a user's file cannot stall the phone.
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
        if let problem = Self.problem(in: Array(pattern.utf8)) { throw PatternError(description: problem) }
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

    /// The largest count of a counted repeat, and of all of a pattern's counts together.
    public static let maximumRepeat = 100
    public static let maximumRepeats = 1_000

    /// Why the pattern's bytes are refused, read as glibc reads an extended expression; `nil`
    /// when they are taken.
    static func problem(in bytes: [UInt8]) -> String? {
        if bytes.contains(0) { return "the pattern holds a NUL character" }
        /// Per open group: whether it holds a counted repeat.
        var groups: [Bool] = []
        var lastWasCountedGroup = false
        var total = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var closedCountedGroup = false
            switch byte {
            case UInt8(ascii: "\\"):
                index += 1
                if index < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
                    return "the pattern refers back to a group (\\\(Character(UnicodeScalar(bytes[index])))), which can make matching take very long; write the text out instead"
                }
            case UInt8(ascii: "["):
                index = endOfBracket(bytes, from: index)
            case UInt8(ascii: "("):
                groups.append(false)
            case UInt8(ascii: ")"):
                closedCountedGroup = groups.popLast() ?? false
            case UInt8(ascii: "{"):
                guard let (count, end) = count(bytes, from: index) else { break }
                if count > maximumRepeat { return "the pattern repeats something \(count) times; at most \(maximumRepeat)" }
                if lastWasCountedGroup {
                    return "the pattern repeats a group that itself repeats a counted number of times, which multiplies its size; write it out or use * or +"
                }
                total += count
                if total > maximumRepeats { return "the pattern's counted repeats add up to more than \(maximumRepeats)" }
                if !groups.isEmpty { groups[groups.count - 1] = true }
                // The group around a counted group holds one too.
                index = end
            default:
                break
            }
            if closedCountedGroup, !groups.isEmpty { groups[groups.count - 1] = true }
            lastWasCountedGroup = closedCountedGroup
            index += 1
        }
        return nil
    }

    /// The index of the `]` that ends the bracket expression opened at `start` (a `]` right
    /// after `[` or `[^` is literal; `[:name:]`, `[.x.]`, `[=x=]` hold their own `]`), or the
    /// last index when it never ends (glibc then refuses the pattern itself).
    private static func endOfBracket(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "["), index + 1 < bytes.count, [UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "=")].contains(bytes[index + 1]) {
                let delimiter = bytes[index + 1]
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == delimiter && bytes[index + 1] == UInt8(ascii: "]")) { index += 1 }
                index += 2
                continue
            }
            if bytes[index] == UInt8(ascii: "]") { return index }
            index += 1
        }
        return bytes.count - 1
    }

    /// The larger count of `{m}`, `{m,}` or `{m,n}` at `start`, and the index of its `}`; `nil`
    /// when the brace opens no count (glibc then takes it literally or refuses it).
    private static func count(_ bytes: [UInt8], from start: Int) -> (Int, Int)? {
        var index = start + 1
        var numbers: [Int] = [0]
        var digits = 0
        while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
            let byte = bytes[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                numbers[numbers.count - 1] = min(numbers[numbers.count - 1] * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
                digits += 1
            } else if byte == UInt8(ascii: ","), numbers.count == 1 {
                numbers.append(0)
            } else {
                return nil
            }
            index += 1
        }
        guard index < bytes.count, digits > 0 else { return nil }
        return (numbers.max() ?? 0, index)
    }
}
