import Foundation

/// One of the user's filter rules (Docs/POLICY.md, "Filter rules"): conditions on a
/// notification, all of which must hold, and what to do with one that matches.
public struct FilterRule: Sendable {
    /// Its name, which decisions quote.
    public var name: String
    /// The app's name, exactly.
    public var app: String?
    /// The freedesktop category: exactly, or its class (`email` matches `email.arrived`).
    public var category: String?
    /// The interruption level.
    public var level: InterruptionLevel?
    /// Whether the title contains a match of the rule's pattern.
    public var title: (@Sendable (String) -> Bool)?
    /// Whether the body contains a match of the rule's pattern.
    public var body: (@Sendable (String) -> Bool)?
    /// What it does.
    public var action: FilterAction

    /// A rule.
    public init(
        name: String, app: String? = nil, category: String? = nil, level: InterruptionLevel? = nil,
        title: (@Sendable (String) -> Bool)? = nil, body: (@Sendable (String) -> Bool)? = nil, action: FilterAction
    ) {
        self.name = name
        self.app = app
        self.category = category
        self.level = level
        self.title = title
        self.body = body
        self.action = action
    }

    /// Whether every condition holds for a notification of `app` with `content`.
    public func matches(app: String, content: NotificationContent) -> Bool {
        if let wanted = self.app, wanted != app { return false }
        if let wanted = category {
            let category = content.freedesktopCategory ?? ""
            guard category == wanted || category.hasPrefix(wanted + ".") else { return false }
        }
        if let level, level != content.interruptionLevel { return false }
        if let title, !title(Self.bounded(content.title)) { return false }
        if let body, !body(Self.bounded(content.body)) { return false }
        return true
    }

    /// The most of a text a pattern reads, in bytes: what a wrist shows is far less, and it
    /// bounds the work of each match.
    public static let matchedBytes = 4096

    static func bounded(_ text: String) -> String {
        text.utf8.count <= matchedBytes ? text : text.truncated(toUTF8Bytes: matchedBytes)
    }
}

/// The user's filter rules in order: the first that matches decides.
public struct FilterRules: Sendable {
    /// The rules, in the order they are tried.
    public var rules: [FilterRule]

    /// Rules tried in this order (none: nothing is filtered).
    public init(_ rules: [FilterRule] = []) {
        self.rules = rules
    }

    /// The first rule matching a notification of `app` with `content`, as the policy takes it.
    public func match(app: String, content: NotificationContent) -> MatchedRule? {
        rules.first { $0.matches(app: app, content: content) }.map { MatchedRule(name: $0.name, action: $0.action) }
    }
}
