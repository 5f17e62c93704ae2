/// What a notification, or a thread of them, shows while previews are hidden.
public struct HiddenPreview: Sendable, Hashable {
    /// The title, when every category involved allows showing it.
    public var title: String?
    /// The subtitle, when every category involved allows showing it.
    public var subtitle: String?
    /// The placeholder summary: "1 Image & 1 Comment".
    public var body: String

    /// Creates a hidden preview.
    public init(title: String?, subtitle: String?, body: String) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }
}

/// Builds hidden-preview placeholders, coalescing a thread by category the way the
/// seeds describe: two comments and an image in one thread read "1 Image & 2 Comments".
public enum HiddenPreviews {
    /// The placeholder of a category with none of its own.
    public static let defaultPlaceholder = PluralizedText(one: "Notification", other: "%u Notifications")

    /// The hidden preview of a group of notifications (one, or a whole thread).
    ///
    /// - Parameters:
    ///   - notifications: the group, newest first; categories are listed in the order of
    ///     their newest notification.
    ///   - categories: the posting app's categories by identifier.
    ///   - language: the language tag whose plural rules apply.
    public static func preview(
        of notifications: [NotificationContent], categories: [String: NotificationCategory], language: String
    ) -> HiddenPreview {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for content in notifications {
            if counts[content.categoryIdentifier] == nil { order.append(content.categoryIdentifier) }
            counts[content.categoryIdentifier, default: 0] += 1
        }
        let parts = order.map { identifier in
            let placeholder = categories[identifier]?.hiddenPreviewsBodyPlaceholder ?? defaultPlaceholder
            return placeholder.format(count: counts[identifier] ?? 0, language: language)
        }
        let options = order.map { categories[$0]?.options ?? [] }
        let newest = notifications.first
        let showTitle = !options.isEmpty && options.allSatisfy { $0.contains(.hiddenPreviewsShowTitle) }
        let showSubtitle = !options.isEmpty && options.allSatisfy { $0.contains(.hiddenPreviewsShowSubtitle) }
        return HiddenPreview(
            title: showTitle ? newest?.title.nilIfEmpty : nil,
            subtitle: showSubtitle ? newest?.subtitle.nilIfEmpty : nil,
            body: joinList(parts))
    }

    /// Joins parts as "A", "A & B", "A, B & C".
    static func joinList(_ parts: [String]) -> String {
        guard let last = parts.last else { return "" }
        guard parts.count > 1 else { return last }
        return parts.dropLast().joined(separator: ", ") + " & " + last
    }
}

extension String {
    /// The string, or `nil` when it is empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
