import Foundation
import RelayCore

/// The wearable's user interface as a state machine: events in, actions out, no I/O.
///
/// The agent feeds it events (notifications, keys, ticks with the current time, link changes)
/// and carries out the actions it returns. `.render` is returned only when what the screen shows
/// changed, so a tick that does not change the minute costs nothing. Text measurement (for the
/// long look's scroll bounds) comes from the injected `measurer`: in the agent the renderer's
/// own `ScreenLayout`, so the keys and the pixels always agree on where the buttons are.
public struct UIStateMachine {
    /// The current state.
    public internal(set) var state: UIState
    /// The fixed settings.
    public let configuration: UIConfiguration
    /// Measures the long look (its scroll bounds and buttons).
    public let measurer: any LongLookMeasuring

    /// Creates a machine in a state, measuring the long look with `measurer`.
    public init(state: UIState, configuration: UIConfiguration, measurer: any LongLookMeasuring) {
        self.state = state
        self.configuration = configuration
        self.measurer = measurer
    }

    /// What the screen shows now.
    public var screenModel: ScreenModel {
        ScreenModel(state: state, configuration: configuration)
    }

    /// Applies an event and returns what to do, `.render` last when the screen changed.
    public mutating func handle(_ event: UIEvent) -> [UIAction] {
        handle([event])
    }

    /// Applies events in order, as one change: what to do for each, then `.render` once if the
    /// screen changed. The screen model is built before and after the whole batch: built around
    /// each event, a catch-up of n notifications with the list open cost n times a model of n.
    @discardableResult
    public mutating func handle(_ events: [UIEvent]) -> [UIAction] {
        let before = screenModel
        var actions: [UIAction] = []
        for event in events { actions += apply(event) }
        if screenModel != before { actions.append(.render) }
        return actions
    }

    private mutating func apply(_ event: UIEvent) -> [UIAction] {
        var actions: [UIAction] = []
        switch event {
        case .upsert(let notification, let alert):
            let done = upsert(notification, alert: alert)
            if done.contains(where: { if case .haptic = $0 { true } else { false } }) { actions += wakePanel() }
            actions += done
        case .remove(let identifier):
            remove(identifier)
        case .key(let key):
            // On a blanked panel a press only wakes it: the user cannot see what it would do.
            guard state.panelAwake else { return wakePanel() }
            state.lastActivity = state.uptime
            actions += press(key)
        case .tick(let now, let uptime):
            state.now = now
            state.uptime = max(state.uptime, uptime)
            expireShortLook()
            // A mute that ends leaves the control screen's rows.
            if case .controls = state.screen { clampPositions() }
            actions += blankPanelIfIdle()
        case .panelCannotBlank:
            state.panelCannotBlank = true
            state.panelAwake = true
        case .link(let link):
            state.link = link
        case .categories(let categories):
            state.categories = categories
            clampPositions()
        case .previewsHidden(let hidden):
            state.previewsHidden = hidden
        case .cannedReplies(let replies):
            state.cannedReplies = replies
            clampPositions()
        case .pairingCode(let code):
            removeScreens { if case .pairing = $0 { true } else { false } }
            push(.pairing(PairingPosition(code: code)))
            actions += wakePanel()
        case .bluetoothPasskey(let passkey):
            removeScreens { if case .pairing = $0 { true } else { false } }
            push(.pairing(PairingPosition(code: passkey, isBluetoothPasskey: true)))
            actions += wakePanel()
        case .pairingFinished:
            removeScreens { if case .pairing = $0 { true } else { false } }
        case .attachmentStored(let url, let width, let height):
            // A size no picture has is a report we cannot lay out; the notification stays as text.
            guard width > 0, height > 0 else { break }
            state.storedImages[url] = AttachmentImage(url: url, width: width, height: height)
            clampPositions()
        case .attachmentRemoved(let url):
            state.storedImages[url] = nil
            clampPositions()
        case .alertPolicy(let policy):
            state.alertPolicy = policy
            clampPositions()
        }
        return actions
    }

    // MARK: Notifications

    private mutating func upsert(_ notification: WearableNotification, alert: Bool) -> [UIAction] {
        // Silent (background) content is never shown; an update that makes a notification silent
        // removes it.
        guard !notification.content.isSilent else {
            remove(notification.identifier)
            return []
        }
        if let index = state.notifications.firstIndex(where: { $0.identifier == notification.identifier }) {
            // An update in place never alerts, whatever the sender said: the user has been told.
            state.notifications[index] = notification
            clampPositions()
            return []
        }
        // Newest first; of two delivered in the same instant, the one that arrived later leads.
        let position = state.notifications.firstIndex { $0.date <= notification.date } ?? state.notifications.count
        state.notifications.insert(notification, at: position)
        state.unread.insert(notification.identifier)
        clampPositions()
        let level = notification.content.interruptionLevel
        // The rest of a burst in the thread on screen arrives silently (Docs/POLICY.md): the
        // short look moves to the newer one and counts the others. One that alerts shows as any.
        if !alert, case .shortLook(let shown, let shownAt) = state.screen, let current = state.notification(shown),
            !current.content.threadIdentifier.isEmpty, current.content.threadIdentifier == notification.content.threadIdentifier,
            current.appName == notification.appName, level != .passive, notification.date >= current.date
        {
            state.screen = .shortLook(identifier: notification.identifier, shownAt: shownAt)
            state.shortLookMore += 1
            return []
        }
        guard alert, level != .passive else { return [] }
        // A short look replaces a short look; the screen beneath stays for Back. A pairing code
        // is never covered: the user is comparing it with the phone's.
        if case .pairing = state.screen { return [.haptic(level)] }
        state.shortLookMore = 0
        if case .shortLook = state.screen {
            state.screen = .shortLook(identifier: notification.identifier, shownAt: state.uptime)
        } else {
            push(.shortLook(identifier: notification.identifier, shownAt: state.uptime))
        }
        return [.haptic(level)]
    }

    /// Forgets a notification and every screen about it.
    mutating func remove(_ identifier: String) {
        state.notifications.removeAll { $0.identifier == identifier }
        state.unread.remove(identifier)
        removeScreens { $0.notificationIdentifier == identifier }
        clampPositions()
    }

    private mutating func expireShortLook() {
        guard case .shortLook(_, let shownAt) = state.screen else { return }
        // By uptime: a wall clock stepped or corrected to the phone's (by an hour, a year) neither
        // ends the look at once nor keeps it up.
        guard state.uptime - shownAt >= .seconds(configuration.shortLookDuration) else { return }
        pop()
    }

    // MARK: Navigation

    mutating func push(_ screen: Screen) {
        state.backStack.append(state.screen)
        state.screen = screen
    }

    mutating func pop() {
        state.screen = state.backStack.popLast() ?? .idle
    }

    /// Takes screens out of the navigation, wherever they are; the watch face stays.
    mutating func removeScreens(where shouldRemove: (Screen) -> Bool) {
        state.backStack.removeAll { $0 != .idle && shouldRemove($0) }
        while state.screen != .idle, shouldRemove(state.screen) { pop() }
    }

    /// Keeps list selections within their lists and drops list screens that became empty, after
    /// notifications came or went.
    mutating func clampPositions() {
        // Grouping is a pass over every notification; only list screens need it, and most
        // changes arrive with none open.
        var grouped: [NotificationGroup]?
        func groups() -> [NotificationGroup] {
            if let grouped { return grouped }
            let groups = state.groups
            grouped = groups
            return groups
        }
        func clamp(_ screen: Screen) -> Screen? {
            switch screen {
            case .list(let selection):
                let groups = groups()
                return groups.isEmpty ? nil : .list(selection: min(selection, groups.count - 1))
            case .thread(let thread, let selection):
                let count = groups().first { $0.thread == thread }?.notifications.count ?? 0
                return count == 0 ? nil : .thread(identifier: thread, selection: min(selection, count - 1))
            case .longLook(var position):
                guard let notification = state.notification(position.identifier) else { return nil }
                let geometry = measurer.longLookGeometry(notification, state: state)
                position.scroll = min(position.scroll, geometry.maxScroll)
                if let focus = position.focus {
                    position.focus = min(focus, state.buttons(of: notification).count - 1)
                    // The focused button stays in view when content above it grows (a picture
                    // arriving, a longer body in an update).
                    position.scroll = geometry.scroll(toShow: min(focus, geometry.buttons.count - 1), from: position.scroll)
                }
                return .longLook(position)
            case .textReply(let identifier, let action, let selection):
                let count = replies(identifier, action).count
                return count == 0 ? nil : .textReply(identifier: identifier, action: action, selection: min(selection, count - 1))
            case .muteMenu(let identifier, let selection):
                guard let notification = state.notification(identifier) else { return nil }
                return .muteMenu(identifier: identifier, selection: min(selection, state.muteChoices(of: notification).count - 1))
            case .controls(let selection):
                return .controls(selection: min(selection, state.controlRows.count - 1))
            default:
                return screen
            }
        }
        state.backStack = state.backStack.compactMap(clamp)
        while state.screen != .idle {
            guard let clamped = clamp(state.screen) else {
                pop()
                continue
            }
            state.screen = clamped
            break
        }
    }

    /// The replies offered for a notification's text-input action (``UIState/replies(_:action:)``).
    func replies(_ identifier: String, _ action: String) -> [String] {
        state.replies(identifier, action: action)
    }

    /// A response stamped with the current time.
    func response(_ identifier: String, _ action: ResponseAction, text: String? = nil) -> UIAction {
        .respond(NotificationResponse(notificationIdentifier: identifier, action: action, userText: text, date: state.now))
    }
}
