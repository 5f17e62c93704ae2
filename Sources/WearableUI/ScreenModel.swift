import Foundation
import RelayCore

/// What the screen shows, derived from the state: the renderer draws exactly this, and the
/// state machine asks for a redraw exactly when it changes.
public enum ScreenModel: Hashable, Sendable {
    /// The watch face.
    case idle(IdleFace)
    /// A notification's short look.
    case shortLook(ShortLook)
    /// A notification's long look.
    case longLook(LongLook)
    /// A menu: suggested replies, the mute menu, the controls.
    case menu(Menu)
    /// The notification list or one thread of it.
    case list(NotificationList)
    /// The pairing code.
    case pairing(PairingPosition)

    /// The watch face's content.
    public struct IdleFace: Hashable, Sendable {
        /// "09:41".
        public var time: String
        /// "AM"/"PM", or empty on a 24-hour clock.
        public var period: String
        /// "Mon 7 Jun".
        public var date: String
        /// Notifications not yet opened.
        public var unread: Int
        /// The link to the phone.
        public var link: LinkState
        /// Whether do not disturb (or quiet hours) is on.
        public var doNotDisturb = false
        /// The face's words and direction.
        public var words = ScreenWords(language: "en")
    }

    /// The short look's content.
    public struct ShortLook: Hashable, Sendable {
        /// The posting app.
        public var appName: String
        /// The title (or, without one, the body; with previews hidden, the placeholder title).
        public var title: String
        /// The placeholder summary while previews are hidden ("1 Comment").
        public var placeholder: String?
        /// How many earlier notifications of its thread came in the same burst.
        public var more = 0
    }

    /// The long look's content: always the real content, because opening it is the user's
    /// explicit request to see it (watchOS's notification privacy works the same way).
    public struct LongLook: Hashable, Sendable {
        /// The posting app.
        public var appName: String
        /// When it was delivered, "09:38".
        public var time: String
        /// The notification.
        public var notification: WearableNotification
        /// The buttons, in order.
        public var buttons: [LongLookButton]
        /// Scroll and focus.
        public var position: LongLookPosition
        /// The picture shown between the subtitle and the body, once it is stored on the wearable.
        public var image: AttachmentImage?
    }

    /// A menu's content: the reply picker, the mute menu, the controls.
    public struct Menu: Hashable, Sendable {
        /// The action's title ("Comment"), "Mute Mail", "Controls".
        public var title: String
        /// The choices: suggested replies, durations, toggles.
        public var choices: [String]
        /// The highlighted choice.
        public var selection: Int
        /// What Select does ("Post", "mute", "change").
        public var buttonTitle: String
        /// The current time, "09:41".
        public var time: String
    }

    /// A list's content.
    public struct NotificationList: Hashable, Sendable {
        /// "Notifications" or the thread's title.
        public var title: String
        /// The rows.
        public var rows: [ListRow]
        /// The highlighted row.
        public var selection: Int
        /// The current time, "09:41".
        public var time: String
        /// Whether the list is mirrored for a language written right to left.
        public var rightToLeft = false
    }

    /// One row: a thread (with its count) or a notification.
    public struct ListRow: Hashable, Sendable {
        /// The posting app.
        public var appName: String
        /// The title line.
        public var title: String
        /// The detail line: the body, or the hidden-preview placeholder.
        public var detail: String
        /// How many notifications the row stands for.
        public var count: Int
        /// Whether any of them is unread.
        public var unread: Bool
    }
}

extension ScreenModel {
    /// The model of a state's current screen.
    public init(state: UIState, configuration: UIConfiguration) {
        let clock = ClockFormat(configuration)
        let summary = PreviewText(state: state, language: configuration.language)
        let idle = IdleFace(
            time: clock.time(state.now), period: clock.period(state.now), date: clock.date(state.now),
            unread: state.unread.count, link: state.link, doNotDisturb: state.doNotDisturb != nil, words: configuration.words)
        // A screen about a notification that is gone cannot be reached through the state
        // machine, which drops such screens; a hand-made state shows the watch face instead.
        switch state.screen {
        case .idle:
            self = .idle(idle)
        case .shortLook(let identifier, _):
            guard let notification = state.notification(identifier) else {
                self = .idle(idle)
                return
            }
            var look = summary.shortLook(for: notification)
            look.more = state.shortLookMore
            self = .shortLook(look)
        case .longLook(let position):
            guard let notification = state.notification(position.identifier) else {
                self = .idle(idle)
                return
            }
            self = .longLook(LongLook(
                appName: notification.appName, time: clock.time(notification.date), notification: notification,
                buttons: state.buttons(of: notification), position: position,
                image: state.longLookImage(of: notification)))
        case .textReply(let identifier, let actionIdentifier, let selection):
            let category = state.notification(identifier).flatMap { state.categories[$0.content.categoryIdentifier] }
            let action = category?.action(withIdentifier: actionIdentifier)
            self = .menu(Menu(
                title: action?.title ?? "", choices: state.replies(identifier, action: actionIdentifier), selection: selection,
                buttonTitle: action?.textInput?.buttonTitle ?? "Send", time: idle.time))
        case .muteMenu(let identifier, let selection):
            guard let notification = state.notification(identifier) else {
                self = .idle(idle)
                return
            }
            self = .menu(Menu(
                title: "Mute \(notification.appName)", choices: state.muteChoices(of: notification).map(\.title), selection: selection,
                buttonTitle: "mute", time: idle.time))
        case .controls(let selection):
            self = .menu(Menu(
                title: "Controls", choices: state.controlRows.map(\.title), selection: selection, buttonTitle: "change", time: idle.time))
        case .list(let selection):
            let rows = state.groups.map { summary.row(for: $0.notifications, unread: state.unread) }
            self = .list(NotificationList(
                title: configuration.words.notifications, rows: rows, selection: selection, time: idle.time,
                rightToLeft: configuration.words.rightToLeft))
        case .thread(let thread, let selection):
            let members = state.groups.first { $0.thread == thread }?.notifications ?? []
            let rows = members.map { summary.row(for: [$0], unread: state.unread) }
            self = .list(NotificationList(
                title: rows.first?.title ?? "", rows: rows, selection: selection, time: idle.time,
                rightToLeft: configuration.words.rightToLeft))
        case .pairing(let position):
            self = .pairing(position)
        }
    }
}

/// The text a list row or short look shows for notifications, honouring hidden previews.
private struct PreviewText {
    let state: UIState
    let language: String

    /// The short look: with previews hidden, the placeholder stands in for the title when the
    /// category does not allow showing it, rather than repeating the app name.
    func shortLook(for notification: WearableNotification) -> ScreenModel.ShortLook {
        let content = notification.content
        guard state.previewsHidden else {
            let title = [content.title, content.subtitle, content.body].first { !$0.isEmpty } ?? notification.appName
            return ScreenModel.ShortLook(appName: notification.appName, title: title, placeholder: nil)
        }
        let preview = HiddenPreviews.preview(of: [content], categories: state.categories, language: language)
        return ScreenModel.ShortLook(
            appName: notification.appName, title: preview.title ?? preview.body, placeholder: preview.title == nil ? nil : preview.body)
    }

    func row(for notifications: [WearableNotification], unread: Set<String> = []) -> ScreenModel.ListRow {
        let newest = notifications[0]
        let content = newest.content
        let title: String, detail: String
        if state.previewsHidden {
            let preview = HiddenPreviews.preview(of: notifications.map(\.content), categories: state.categories, language: language)
            title = preview.title ?? newest.appName
            detail = preview.body
        } else if content.title.isEmpty {
            title = content.body
            detail = ""
        } else {
            title = content.title
            // In a thread the subtitle is usually the sender, which tells the messages apart.
            detail = notifications.count > 1 && !content.subtitle.isEmpty ? "\(content.subtitle): \(content.body)" : content.body
        }
        return ScreenModel.ListRow(
            appName: newest.appName, title: title, detail: detail, count: notifications.count,
            unread: notifications.contains { unread.contains($0.identifier) })
    }
}
