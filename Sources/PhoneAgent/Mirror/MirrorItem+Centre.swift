public import Foundation
import RelayCore
import RelayFreedesktop

extension MirrorItem {
    /// What the mirror sees of a notification in the centre. Relay's own API brings its
    /// category; a freedesktop notification's actions become one (the `default` action is a
    /// tap on the notification, not a button; KDE's inline reply is a text-input action).
    public init(_ notification: DeliveredNotification, deliveredAt: Date) {
        let category: NotificationCategory?
        if let source = notification.origin.rich {
            category = source.category
        } else {
            category = Self.category(of: notification)
        }
        self.init(
            centreID: notification.id, appName: notification.appName, content: notification.content, category: category,
            deliveredAt: notification.origin.rich?.date ?? deliveredAt,
            occurrence: notification.origin.rich.flatMap { source in
                source.occurrence.map { OccurrenceOrigin(identifier: source.identifier, occurrence: $0) }
            })
    }

    private static func category(of notification: DeliveredNotification) -> NotificationCategory? {
        var actions = notification.actions
            .filter { $0.key != ResponseAction.defaultIdentifier && $0.key != ResponseAction.dismissIdentifier }
            .filter { !$0.key.isEmpty && !$0.label.isEmpty }
            .map { action in
                action.key == FreedesktopMapping.inlineReplyKey
                    ? NotificationAction(identifier: action.key, title: action.label, textInput: TextInputOptions())
                    : NotificationAction(
                        identifier: action.key.truncated(toUTF8Bytes: ModelLimits.actionIdentifierBytes),
                        title: action.label.truncated(toUTF8Bytes: ModelLimits.actionTextBytes))
            }
        if notification.acceptsReply, !actions.contains(where: { $0.identifier == FreedesktopMapping.inlineReplyKey }) {
            // The reply-placeholder hint without an inline-reply action still takes a reply.
            actions.append(NotificationAction(identifier: FreedesktopMapping.inlineReplyKey, title: "Reply", textInput: TextInputOptions()))
        }
        var seen = Set<String>()
        actions = actions.filter { seen.insert($0.identifier).inserted }
        guard !actions.isEmpty else { return nil }
        // One category per distinct set of buttons, so equal sets share a key on the wire.
        let signature = actions.map { "\($0.identifier)=\($0.title)" }.joined(separator: "\u{1E}")
        return NotificationCategory(
            identifier: "freedesktop:" + signature, actions: Array(actions.prefix(ModelLimits.actionsPerCategory)))
    }
}

extension DeliveredNotification {
    /// The app's own key for an action the wearable names. The wire carries keys cut to
    /// `ModelLimits.actionIdentifierBytes` (`category(of:)`), and some apps' keys run longer
    /// (GLib's detailed action names, `app.open('…')`), so a key the app did not send is matched
    /// by its cut; one that matches no key, or several, is returned as it is.
    public func actionKey(fromWire wire: String) -> String {
        guard !actions.contains(where: { $0.key == wire }) else { return wire }
        let matches = actions.filter { $0.key.truncated(toUTF8Bytes: ModelLimits.actionIdentifierBytes) == wire }
        return matches.count == 1 ? matches[0].key : wire
    }
}
