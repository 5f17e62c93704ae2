import Foundation
import RelaySystem
import Testing

/// Filter patterns through glibc: what matches, and the patterns refused because their
/// compiled size, and so the time to match them, could grow without bound.
@Suite struct POSIXRegexTests {
    @Test func extendedExpressionsMatchAnywhereInTheText() throws {
        let sale = try POSIXRegex("sale|offer [0-9]+%", ignoringCase: true)
        #expect(sale.matches("Summer SALE starts"))
        #expect(sale.matches("an offer 20% off"))
        #expect(!sale.matches("Your invoice"))
        #expect(try POSIXRegex("^[[:digit:]]{3}$").matches("123"))
        #expect(try POSIXRegex("[]x]").matches("a]b"))
    }

    @Test(arguments: [
        ("(a)\\1", "refers back to a group"),
        ("(a)\\1\u{FE0F}", "refers back to a group"),
        ("(.{32767}){32767}", "at most 100"),
        ("((a{9})b){9}", "a group that itself repeats"),
        ("(a{9}){9}", "a group that itself repeats"),
        (String(repeating: "a{99}", count: 11), "add up to more than 1000"),
        ("a\u{0}b", "NUL"),
        ("(unclosed", "Unmatched ( or"),
    ])
    func dangerousOrBrokenPatternsAreRefused(_ pattern: String, _ reason: String) {
        let error = #expect(throws: POSIXRegex.PatternError.self) { try POSIXRegex(pattern) }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
    }

    @Test func aBracketExpressionIsNotReadAsAReference() throws {
        #expect(try POSIXRegex("[\\1]").matches("1"))
        #expect(try POSIXRegex("(a{5})+b").matches("aaaaab"))
    }
}
