import Foundation
import RelayControl
import RelayCore
import WearableUI

/// The replica as the screen has it (`notifications`), and answering a notification from the
/// control socket (`respond`) the way the long look's buttons do (Docs/CONTROL.md).
extension WearableRuntime {
    /// Counts an alert the replica asked for: `notifications` shows the count per notification,
    /// so that "an alert is never repeated" can be checked from outside. A notification's count
    /// goes with it: kept, the counts grew with every notification ever shown.
    func countAlert(_ event: UIEvent) {
        switch event {
        case .upsert(let notification, alert: true):
            alertCounts[notification.identifier, default: 0] += 1
            // One line per alert, so that counts survive a crash of the agent in whoever reads
            // the log; written right after the frame (`linesAfterFrame`).
            linesAfterFrame.append("relay-wearable: alert for notification \(notification.identifier)")
        case .remove(let identifier):
            alertCounts.removeValue(forKey: identifier)
        default:
            break
        }
    }

    /// Every notification on the screen, newest first: its id (the phone's key), app, title,
    /// body, level, freedesktop category and how many times it alerted since the agent started.
    func notifications() -> ControlResponse {
        let entries = machine.state.notifications.map { notification -> ControlValue in
            .object([
                "id": .int(Int(notification.identifier) ?? 0),
                "app": .string(notification.appName),
                "title": .string(notification.content.title),
                "body": .string(notification.content.body),
                "alerts": .int(alertCounts[notification.identifier] ?? 0),
                "level": .string(notification.content.interruptionLevel.rawValue),
                "category": .string(notification.content.freedesktopCategory ?? ""),
            ])
        }
        return .success(["notifications": .list(entries)])
    }

    /// Chooses `action` of notification `id` (with `text` for a text-input action), as Select on
    /// a long look's button does: the response goes into the outbox for the phone and the
    /// notification leaves the screen.
    func respond(id: UInt32, action: String, text: String?) -> ControlResponse {
        let identifier = String(id)
        guard let notification = machine.state.notification(identifier) else {
            return .failure("notification \(id) is not on the wearable's screen; `relayctl notifications` lists those that are")
        }
        let buttons = machine.state.buttons(of: notification).filter { $0.responseIdentifier != nil }
        let names = buttons.compactMap(\.responseIdentifier)
        guard let button = buttons.first(where: { $0.responseIdentifier == action }) else {
            return .failure("notification \(id) has no action '\(action)'; choose one of: \(names.joined(separator: ", "))")
        }
        let takesText = if case .action(let choice) = button { choice.textInput != nil } else { false }
        if takesText, text?.isEmpty ?? true {
            return .failure("the action '\(action)' of notification \(id) takes a text reply: give \"text\"")
        }
        if !takesText, text != nil {
            return .failure("the action '\(action)' of notification \(id) takes no text")
        }
        let response = NotificationResponse(
            notificationIdentifier: identifier, action: ResponseAction(identifier: action), userText: text,
            date: machine.state.now)
        do {
            try link.respond(response)
        } catch {
            return .failure("could not store the response to notification \(id): \(error); try again")
        }
        log("relay-wearable: response \(action) to notification \(id) queued for the phone")
        // Acting on a notification removes it from the screen, as the long look does; the phone's
        // removal follows through the link.
        apply(.remove(identifier: identifier))
        return .success(["id": .int(Int(id))])
    }
}

extension LongLookButton {
    /// The action identifier a response to this button carries; `nil` for Mute, which answers
    /// nothing (`relayctl mutes add` mutes).
    fileprivate var responseIdentifier: String? {
        switch self {
        case .openOnPhone: ResponseAction.default.identifier
        case .dismiss: ResponseAction.dismiss.identifier
        case .action(let action): action.identifier
        case .clear, .mute: nil
        }
    }
}
