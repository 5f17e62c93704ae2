import RelayConfig
import Testing

/// The phone's filter rules file: rules in the order written, and every mistake at its
/// file:line:column with what to write instead.
@Suite struct FilterRuleFileTests {
    @Test func rulesAreReadInTheOrderWrittenWithTheirPatterns() throws {
        let file = try FilterRuleFile(
            text: """
                [rule.spam]
                app = "Spam"
                action = "drop"

                [rule.offers]
                category = "email"
                title = "offer|sale"
                ignore_case = true
                action = "silent"

                [rule.door]
                app = "Doorbell"
                level = "active"
                action = "always-alert"
                """, path: "filters.toml")
        #expect(file.rules.map(\.name) == ["spam", "offers", "door"])
        #expect(file.rules.map(\.action) == ["drop", "silent", "always-alert"])
        let offers = try #require(file.rules.first { $0.name == "offers" })
        #expect(offers.title?.matches("Big SALE today") == true)
        #expect(offers.title?.matches("Your invoice") == false)
        #expect(offers.category == "email" && offers.app == nil)
    }

    @Test func everyMistakeIsNamedAtItsPlaceWithWhatToWrite() {
        let error = #expect(throws: ConfigurationError.self) {
            try FilterRuleFile(
                text: """
                    [rule.one]
                    app = "Mail"
                    titel = "x"
                    action = "drop"

                    [rule.two]
                    title = "(unclosed"
                    action = "silent"

                    [rule.three]
                    body = "(a)\\\\1"
                    action = "mute"

                    [rule.four]
                    action = "drop"

                    [rule.five]
                    app = "Chat"
                    """, path: "filters.toml")
        }
        let text = error?.description ?? ""
        #expect(text.contains("filters.toml:3:1: unknown key 'titel' in rule one; did you mean 'title'?"), "\(text)")
        #expect(text.contains("filters.toml:7:1: rule.two.title is not a pattern Relay takes"), "\(text)")
        #expect(text.contains("filters.toml:11:1: rule.three.body is not a pattern Relay takes (POSIX extended regular expression): the pattern refers back to a group (\\1)"), "\(text)")
        #expect(text.contains("filters.toml:12:1: rule.three.action is \"mute\"; it must be one of drop, silent, always-alert"), "\(text)")
        #expect(text.contains("rule four has no condition and would match every notification"), "\(text)")
        #expect(text.contains("rule five has no action"), "\(text)")
    }

    @Test func aFileThatIsNotRulesSaysHowRulesAreWritten() {
        let error = #expect(throws: ConfigurationError.self) {
            try FilterRuleFile(text: "rules = 3\n[rule]\nspam = \"drop\"\n", path: "filters.toml")
        }
        let text = error?.description ?? ""
        #expect(text.contains("filters.toml:1:1: unknown key 'rules'; each rule is a table [rule.NAME]"), "\(text)")
        #expect(text.contains("rule.spam must be a table of conditions and an action"), "\(text)")
    }

    @Test func aMissingFileIsNoRules() throws {
        #expect(try FilterRuleFile.load(path: "/nonexistent/filters.toml").rules.isEmpty)
    }
}
