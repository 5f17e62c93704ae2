/// An option set written in JSON as a sorted array of option names.
protocol NamedOptionSet: OptionSet where Element == Self {
    /// Every option with its JSON name.
    static var names: [(Self, String)] { get }
}

extension NamedOptionSet {
    /// Decodes an array of names; an unknown name is an error naming the known ones.
    static func decodeNames(from decoder: any Decoder) throws -> Self {
        let container = try decoder.singleValueContainer()
        var options = Self()
        for name in try container.decode([String].self) {
            guard let option = Self.names.first(where: { $0.1 == name })?.0 else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "unknown option '\(name)'; known: \(Self.names.map(\.1).joined(separator: ", "))")
            }
            options.insert(option)
        }
        return options
    }

    /// Encodes the set options' names in declaration order.
    func encodeNames(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.names.filter { contains($0.0) }.map(\.1))
    }
}

extension CategoryOptions: Codable {
    /// Decodes an array of option names.
    public init(from decoder: any Decoder) throws { self = try Self.decodeNames(from: decoder) }
    /// Encodes the set options' names.
    public func encode(to encoder: any Encoder) throws { try encodeNames(to: encoder) }
}

extension ActionOptions: Codable {
    /// Decodes an array of option names.
    public init(from decoder: any Decoder) throws { self = try Self.decodeNames(from: decoder) }
    /// Encodes the set options' names.
    public func encode(to encoder: any Encoder) throws { try encodeNames(to: encoder) }
}

extension NotificationCategory: Codable {
    private enum CodingKeys: String, CodingKey {
        case identifier, actions, hiddenPreviewsBodyPlaceholder, categorySummaryFormat, options
    }

    /// Decodes a category; everything but the identifier may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            identifier: try c.decode(String.self, forKey: .identifier),
            actions: try c.decode([NotificationAction].self, forKey: .actions, default: []),
            hiddenPreviewsBodyPlaceholder: try c.decodeIfPresent(PluralizedText.self, forKey: .hiddenPreviewsBodyPlaceholder),
            categorySummaryFormat: try c.decodeIfPresent(PluralizedText.self, forKey: .categorySummaryFormat),
            options: try c.decode(CategoryOptions.self, forKey: .options, default: []))
    }

    /// Encodes the category, leaving out what is empty.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encodeUnlessEmpty(actions, forKey: .actions)
        try c.encodeIfPresent(hiddenPreviewsBodyPlaceholder, forKey: .hiddenPreviewsBodyPlaceholder)
        try c.encodeIfPresent(categorySummaryFormat, forKey: .categorySummaryFormat)
        if !options.isEmpty { try c.encode(options, forKey: .options) }
    }
}

extension NotificationAction: Codable {
    private enum CodingKeys: String, CodingKey { case identifier, title, options, textInput }

    /// Decodes an action; options and text input may be absent.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            identifier: try c.decode(String.self, forKey: .identifier),
            title: try c.decode(String.self, forKey: .title),
            options: try c.decode(ActionOptions.self, forKey: .options, default: []),
            textInput: try c.decodeIfPresent(TextInputOptions.self, forKey: .textInput))
    }

    /// Encodes the action, leaving out what is empty.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(identifier, forKey: .identifier)
        try c.encode(title, forKey: .title)
        if !options.isEmpty { try c.encode(options, forKey: .options) }
        try c.encodeIfPresent(textInput, forKey: .textInput)
    }
}

extension TextInputOptions: Codable {
    private enum CodingKeys: String, CodingKey { case buttonTitle, placeholder, suggestedReplies }

    /// Decodes text-input options with their defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            buttonTitle: try c.decode(String.self, forKey: .buttonTitle, default: "Send"),
            placeholder: try c.decode(String.self, forKey: .placeholder, default: ""),
            suggestedReplies: try c.decode([String].self, forKey: .suggestedReplies, default: []))
    }

    /// Encodes the options, leaving out what is empty.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(buttonTitle, forKey: .buttonTitle)
        try c.encodeUnlessEmpty(placeholder, forKey: .placeholder)
        try c.encodeUnlessEmpty(suggestedReplies, forKey: .suggestedReplies)
    }
}
