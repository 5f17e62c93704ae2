/// A CLDR plural category.
public enum PluralCategory: String, Sendable, Hashable, Codable, CaseIterable {
    case zero, one, two, few, many, other
}

/// CLDR cardinal plural rules for whole numbers, for the languages Relay ships text in
/// and the common ones apps use. Unlisted languages fall back to English's rule, which
/// picks `one` for 1 and `other` otherwise.
public struct PluralRules: Sendable, Hashable {
    private enum Rule: Hashable {
        case oneOther           // English, German, Dutch, Italian, Spanish, Swedish, ...
        case zeroOrOneIsOne     // French, Brazilian Portuguese: 0 and 1 are `one`
        case eastSlavic         // Russian, Ukrainian, Belarusian
        case polish
        case westSlavic         // Czech, Slovak
        case arabic
        case hebrew
        case otherOnly          // Japanese, Chinese, Korean, Thai, Vietnamese, Indonesian
    }

    private let rule: Rule

    /// The rules for a language tag such as `en`, `pt-BR` or `ru_RU`.
    public init(language tag: String) {
        let language = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        switch language {
        case "fr", "pt": rule = .zeroOrOneIsOne
        case "ru", "uk", "be": rule = .eastSlavic
        case "pl": rule = .polish
        case "cs", "sk": rule = .westSlavic
        case "ar": rule = .arabic
        case "he", "iw": rule = .hebrew
        case "ja", "zh", "ko", "th", "vi", "id", "ms", "lo", "my": rule = .otherOnly
        default: rule = .oneOther
        }
    }

    /// The category of a count.
    public func category(for count: Int) -> PluralCategory {
        let n = count.magnitude
        let mod10 = n % 10
        let mod100 = n % 100
        switch rule {
        case .oneOther:
            return n == 1 ? .one : .other
        case .zeroOrOneIsOne:
            return n <= 1 ? .one : .other
        case .eastSlavic:
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case .polish:
            if n == 1 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case .westSlavic:
            if n == 1 { return .one }
            return (2...4).contains(n) ? .few : .other
        case .arabic:
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                if (3...10).contains(mod100) { return .few }
                if (11...99).contains(mod100) { return .many }
                return .other
            }
        case .hebrew:
            if n == 1 { return .one }
            return n == 2 ? .two : .other
        case .otherOnly:
            return .other
        }
    }
}
