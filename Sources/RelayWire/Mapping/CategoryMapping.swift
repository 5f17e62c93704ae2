public import RelayCore

extension Relay_V1_Category {
    /// The wire form of a category, under the key the phone assigned to it.
    public init(_ category: NotificationCategory, key: UInt32) {
        self.init()
        self.key = key
        actions = category.actions.map(Relay_V1_Action.init)
        if let placeholder = category.hiddenPreviewsBodyPlaceholder {
            hiddenPreviewsBodyPlaceholder = Relay_V1_PluralText(placeholder)
        }
        if let format = category.categorySummaryFormat { summaryFormat = Relay_V1_PluralText(format) }
        options = UInt32(truncatingIfNeeded: category.options.rawValue)
    }
}

extension NotificationCategory {
    /// A category from the wire, identified by its key in decimal; option bits this
    /// version does not know are ignored.
    public init(_ wire: Relay_V1_Category) {
        self.init(
            identifier: WireKey.identifier(wire.key),
            actions: wire.actions.map(NotificationAction.init),
            hiddenPreviewsBodyPlaceholder: wire.hasHiddenPreviewsBodyPlaceholder
                ? PluralizedText(wire.hiddenPreviewsBodyPlaceholder) : nil,
            categorySummaryFormat: wire.hasSummaryFormat ? PluralizedText(wire.summaryFormat) : nil,
            options: CategoryOptions(rawValue: Int(wire.options & 0b111)))
    }
}

extension Relay_V1_Action {
    /// The wire form of an action.
    public init(_ action: NotificationAction) {
        self.init()
        id = action.identifier
        title = action.title
        options = UInt32(truncatingIfNeeded: action.options.rawValue)
        if let input = action.textInput {
            textInput = Relay_V1_TextInput.with {
                $0.buttonTitle = input.buttonTitle
                $0.placeholder = input.placeholder
                $0.suggestedReplies = input.suggestedReplies
            }
        }
    }
}

extension NotificationAction {
    /// An action from the wire; option bits this version does not know are ignored.
    public init(_ wire: Relay_V1_Action) {
        self.init(
            identifier: wire.id, title: wire.title, options: ActionOptions(rawValue: Int(wire.options & 0b111)),
            textInput: wire.hasTextInput
                ? TextInputOptions(
                    buttonTitle: wire.textInput.buttonTitle, placeholder: wire.textInput.placeholder,
                    suggestedReplies: wire.textInput.suggestedReplies)
                : nil)
    }
}

extension Relay_V1_PluralText {
    /// The wire form of pluralized text.
    public init(_ text: PluralizedText) {
        self.init()
        forms = Dictionary(uniqueKeysWithValues: text.forms.map { ($0.key.rawValue, $0.value) })
    }
}

extension PluralizedText {
    /// Pluralized text from the wire; unknown categories are dropped, and text without an
    /// `other` form falls back to its first form so that something is always shown.
    public init(_ wire: Relay_V1_PluralText) {
        var forms: [PluralCategory: String] = [:]
        for (key, value) in wire.forms {
            if let category = PluralCategory(rawValue: key) { forms[category] = value }
        }
        if forms[.other] == nil {
            forms[.other] = PluralCategory.allCases.lazy.compactMap { forms[$0] }.first ?? ""
        }
        self = PluralizedText(forms: forms) ?? PluralizedText("")
    }
}
