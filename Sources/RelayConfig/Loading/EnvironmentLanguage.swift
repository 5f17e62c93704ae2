/// The language the environment asks for, for settings whose `language` key is empty: the
/// first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty, as POSIX orders
/// them, written as a language tag (`de_DE.UTF-8` → `de-DE`).
public enum EnvironmentLanguage {
    /// The tag the environment names; `en` for the C and POSIX locales, for none, and for a
    /// name that is no language (the C library falls back to the C locale then, too).
    public static func tag(in environment: [String: String]) -> String {
        guard let name = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return fallback }
        // A locale name is language[_territory][.codeset][@modifier]; the tag is the first two.
        let locale = String(name.prefix { $0 != "." && $0 != "@" })
        guard locale != "C", locale != "POSIX" else { return fallback }
        let tag = locale.replacingUnderscores
        return ConfigRule.languageTag.problem(with: .string(tag)) == nil && !tag.isEmpty ? tag : fallback
    }

    /// The language of the C locale.
    public static let fallback = "en"
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
}
