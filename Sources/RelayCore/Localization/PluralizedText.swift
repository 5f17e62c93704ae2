/// A text with a form per plural category, the model's version of a `.stringsdict`
/// entry: `{"one": "%u Comment", "other": "%u Comments"}`. `%u` (also `%d`, `%i`, `%lu`,
/// `%ld`, `%llu`, `%lld`) stands for the count and `%%` for a percent sign.
///
/// In JSON a plain string is accepted as the `other` form for every count.
public struct PluralizedText: Sendable, Hashable {
    /// The forms by category; `other` is always present.
    public private(set) var forms: [PluralCategory: String]

    /// Text with the same form for every count.
    public init(_ text: String) {
        forms = [.other: text]
    }

    /// Text with a singular and a general form.
    public init(one: String, other: String) {
        forms = [.one: one, .other: other]
    }

    /// Text from explicit forms; `other` is required because every language uses it.
    public init?(forms: [PluralCategory: String]) {
        guard forms[.other] != nil else { return nil }
        self.forms = forms
    }

    /// The form for a count in a language, with the count substituted.
    public func format(count: Int, language: String) -> String {
        let category = PluralRules(language: language).category(for: count)
        let template = forms[category] ?? forms[.other] ?? ""
        return Self.substitute(count: count, in: template)
    }

    /// Every form, for validation.
    public var allForms: [String] { PluralCategory.allCases.compactMap { forms[$0] } }

    private static let countSpecifiers = ["%llu", "%lld", "%lu", "%ld", "%u", "%d", "%i"]

    private static func substitute(count: Int, in template: String) -> String {
        var result = ""
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            let tail = rest[percent...]
            if tail.hasPrefix("%%") {
                result += "%"
                rest = tail.dropFirst(2)
            } else if let specifier = countSpecifiers.first(where: { tail.hasPrefix($0) }) {
                result += String(count)
                rest = tail.dropFirst(specifier.count)
            } else {
                result += "%"
                rest = tail.dropFirst()
            }
        }
        return result + rest
    }
}

extension PluralizedText: Codable {
    /// Decodes a plain string or an object of forms that includes `other`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.init(text)
            return
        }
        let raw = try container.decode([String: String].self)
        var forms: [PluralCategory: String] = [:]
        for (key, value) in raw {
            guard let category = PluralCategory(rawValue: key) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "unknown plural category '\(key)'; use zero, one, two, few, many or other")
            }
            forms[category] = value
        }
        guard let text = PluralizedText(forms: forms) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "plural forms need an 'other' form")
        }
        self = text
    }

    /// Encodes a single form as a string and several as an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if forms.count == 1, let other = forms[.other] {
            try container.encode(other)
        } else {
            try container.encode(Dictionary(uniqueKeysWithValues: forms.map { ($0.key.rawValue, $0.value) }))
        }
    }
}
