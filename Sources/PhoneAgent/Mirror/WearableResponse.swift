import enum RelayCore.ResponseAction
import RelayFreedesktop
public import RelayWire

/// What became of a response from the wearable (an action, a reply or a dismissal) in the
/// phone's centre. The owner emits `signals` once the change is stored, and logs `description`.
public enum WearableResponseOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The centre acted as for relayctl; the app hears `signals`.
    case applied(id: UInt32, action: String, withReply: Bool, signals: [NotificationSignal])
    /// Monitor mode: another server owns the notification and speaks to its app. The dismissal
    /// closed it here (`signals`, not for the app); the owner closes it at that server too.
    case closeAtMonitoredServer(id: UInt32, signals: [NotificationSignal])
    /// Monitor mode: an action or reply for another server's notification; the freedesktop
    /// specification has no method to invoke one there, so nothing happens.
    case notPossibleWhileMonitoring(id: UInt32, action: String)
    /// The centre refused it (the notification has no such action, takes no reply, …).
    case refused(id: UInt32, action: String, CentreError)
    /// The notification it answers is gone from the phone.
    case gone(notificationKey: UInt64)

    /// Whether the app that posted hears of it (the monitored server's app does not).
    public var isAnnounced: Bool {
        if case .applied = self { true } else { false }
    }

    /// The signals of the change in the centre.
    public var signals: [NotificationSignal] {
        switch self {
        case .applied(_, _, _, let signals), .closeAtMonitoredServer(_, let signals): signals
        case .notPossibleWhileMonitoring, .refused, .gone: []
        }
    }

    /// The log line, after "relay-phone: ".
    public var description: String {
        switch self {
        case .applied(let id, let action, let withReply, _):
            "from the wearable: \(action) on \(id)\(withReply ? " with a reply" : "")"
        case .closeAtMonitoredServer(let id, _):
            "from the wearable: dismiss on \(id); closing it at the notification server"
        case .notPossibleWhileMonitoring(let id, let action):
            "the wearable's \(action) on \(id) was not applied: in monitor mode another server owns it, and the specification gives no method to invoke an action there"
        case .refused(let id, let action, let error):
            "the wearable's \(action) on \(id) was not applied: \(error)"
        case .gone(let key):
            "the wearable answered notification key \(key), which is gone"
        }
    }
}

extension NotificationCentre {
    /// Applies a response from the wearable to notification `id` (`nil`: none answers it any
    /// more). With `monitoring`, relay-phone watches another notification server, which owns
    /// the freedesktop notifications: only a dismissal can reach those (the owner closes them
    /// there), while Relay's own API's are the centre's as ever.
    public mutating func apply(_ response: Relay_V1_Response, to id: UInt32?, monitoring: Bool) -> WearableResponseOutcome {
        guard let id else { return .gone(notificationKey: response.notificationKey) }
        let dismissed = response.action == ResponseAction.dismissIdentifier
        if monitoring, delivered.isFreedesktop(id) {
            guard dismissed else { return .notPossibleWhileMonitoring(id: id, action: response.action) }
            return .closeAtMonitoredServer(id: id, signals: close(id, reason: .dismissedByUser))
        }
        do {
            let signals: [NotificationSignal]
            if dismissed {
                signals = try dismiss(id)
            } else if response.hasUserText {
                signals = try reply(
                    id, text: response.userText, action: response.action == FreedesktopMapping.inlineReplyKey ? nil : response.action)
            } else {
                signals = try invoke(id, action: delivered[id]?.actionKey(fromWire: response.action) ?? response.action)
            }
            return .applied(id: id, action: response.action, withReply: response.hasUserText, signals: signals)
        } catch {
            return .refused(id: id, action: response.action, error)
        }
    }
}

extension PhoneMirror {
    /// The centre's notification a response from the wearable is for: by its wire key, or for
    /// the wearable's own copy of an occurrence it fired while apart, the app's notification of
    /// that request in `centre`.
    public func centreID(answeredBy response: Relay_V1_Response, in centre: NotificationCentre) -> UInt32? {
        guard response.hasOccurrence, WireKey.scheduleKey(ofLocal: response.notificationKey) != nil else {
            return centreID(ofKey: response.notificationKey)
        }
        guard let name = scheduleName(ofKey: response.occurrence.scheduleKey) else { return nil }
        return centre.delivered(appID: name.appName).first { $0.origin.rich?.identifier == name.identifier }?.id
    }
}
