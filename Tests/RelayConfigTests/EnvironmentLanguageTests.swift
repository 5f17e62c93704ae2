import RelayConfig
import Testing

/// An empty `language` key takes the environment's language, in POSIX's order.
@Suite struct EnvironmentLanguageTests {
    @Test func localeNamesBecomeTags() {
        #expect(EnvironmentLanguage.tag(in: ["LANG": "de_DE.UTF-8"]) == "de-DE")
        #expect(EnvironmentLanguage.tag(in: ["LANG": "pt_BR"]) == "pt-BR")
        #expect(EnvironmentLanguage.tag(in: ["LANG": "sr_RS@latin"]) == "sr-RS")
        #expect(EnvironmentLanguage.tag(in: ["LANG": "ru"]) == "ru")
    }

    @Test func lcAllThenLcMessagesThenLang() {
        let all = ["LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "pl_PL.UTF-8", "LANG": "de_DE.UTF-8"]
        #expect(EnvironmentLanguage.tag(in: all) == "fr-FR")
        #expect(EnvironmentLanguage.tag(in: all.merging(["LC_ALL": ""]) { $1 }) == "pl-PL", "an empty variable is not set")
        #expect(EnvironmentLanguage.tag(in: ["LANG": "de_DE.UTF-8"]) == "de-DE")
    }

    @Test func theCLocaleNoneAndNonsenseAreEnglish() {
        #expect(EnvironmentLanguage.tag(in: [:]) == "en")
        #expect(EnvironmentLanguage.tag(in: ["LANG": "C.UTF-8"]) == "en")
        #expect(EnvironmentLanguage.tag(in: ["LC_ALL": "POSIX", "LANG": "de_DE"]) == "en", "LC_ALL wins even when it is C")
        #expect(EnvironmentLanguage.tag(in: ["LANG": "/usr/share/locale/x"]) == "en")
        #expect(EnvironmentLanguage.tag(in: ["LANG": ".UTF-8"]) == "en")
    }
}
