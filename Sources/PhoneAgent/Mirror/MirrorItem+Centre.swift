public import Foundation
import RelayCore
import RelayFreedesktop

extension MirrorItem {
    /// What the mirror sees of a notification in the centre. Relay's own API brings its
    /// category; a freedesktop notification's actions become one (the `default` action is a
    /// tap on the notification, not a button; KDE's inline reply is a text-input action).
    /// In monitor mode (`monitoring`) another server owns the freedesktop notifications, and
    /// none of their actions, their click or a reply can be carried out from here (the
    /// specification has no method for it): the wearable is offered none.
    public init(_ notification: DeliveredNotification, deliveredAt: Date, monitoring: Bool) {
        let category: NotificationCategory?
        let actionable = !monitoring || notification.origin.rich != nil
        if let source = notification.origin.rich {
            category = source.category
        } else if !actionable {
            category = nil
        } else {
            category = FreedesktopMapping.category(actions: notification.actions, replyPlaceholder: nil, acceptsReply: notification.acceptsReply)
        }
        self.init(
            centreID: notification.id, appName: notification.appName, content: notification.content, category: category,
            deliveredAt: notification.origin.rich?.date ?? deliveredAt,
            occurrence: notification.origin.rich.flatMap { source in
                source.occurrence.map { OccurrenceOrigin(identifier: source.identifier, occurrence: $0) }
            })
        hasDefaultAction = actionable && notification.actions.contains { $0.key == ResponseAction.defaultIdentifier }
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
