import RelayCore

/// The text limits a peer states in its Hello (`Capabilities.max_title_bytes`,
/// `max_body_bytes`, PROTOCOL.md §10.2), applied by the sender: a small wearable (a
/// microcontroller watch) keeps buffers of exactly that size and must never receive more.
public struct TextFitting: Sendable, Hashable {
    /// The longest title, in UTF-8 bytes; `nil` for no limit.
    public var titleBytes: Int?
    /// The longest body, in UTF-8 bytes; `nil` for no limit.
    public var bodyBytes: Int?

    /// The limits `capabilities` state; 0 (a field not set) states none.
    public init(_ capabilities: Relay_V1_Capabilities) {
        titleBytes = capabilities.maxTitleBytes == 0 ? nil : Int(capabilities.maxTitleBytes)
        bodyBytes = capabilities.maxBodyBytes == 0 ? nil : Int(capabilities.maxBodyBytes)
    }

    /// Whether nothing is limited.
    public var isUnlimited: Bool { titleBytes == nil && bodyBytes == nil }

    /// `change` with the title and body of its content (a notification's, or a scheduled
    /// request's) cut at a grapheme boundary to fit; other changes as they are.
    public func fitted(_ change: Relay_V1_Change) -> Relay_V1_Change {
        guard !isUnlimited else { return change }
        var change = change
        switch change.kind {
        case .upsert(var upsert):
            upsert.content = fitted(upsert.content)
            change.kind = .upsert(upsert)
        case .scheduleUpsert(var schedule):
            schedule.content = fitted(schedule.content)
            change.kind = .scheduleUpsert(schedule)
        case .remove, .categoryUpsert, .categoryRemove, .scheduleRemove, .snapshotBegin, .snapshotEnd, .settings, .appInfo, .preferences, nil:
            break
        }
        return change
    }

    private func fitted(_ content: Relay_V1_Content) -> Relay_V1_Content {
        var content = content
        if let titleBytes, content.title.utf8.count > titleBytes { content.title = content.title.truncated(toUTF8Bytes: titleBytes) }
        if let bodyBytes, content.body.utf8.count > bodyBytes { content.body = content.body.truncated(toUTF8Bytes: bodyBytes) }
        return content
    }
}
