import Foundation

/// One screen of the wearable's navigation.
public enum Screen: Hashable, Sendable {
    /// The watch face: clock, unread count, link state.
    case idle
    /// The brief alert shown when a notification arrives: app name and title; `shownAt` is the
    /// agent's uptime then (a monotonic clock, which a corrected wall clock does not move).
    case shortLook(identifier: String, shownAt: Duration)
    /// The whole notification, scrolled by the keys, with its actions as buttons.
    case longLook(LongLookPosition)
    /// The suggested replies of a text-input action.
    case textReply(identifier: String, action: String, selection: Int)
    /// Every notification, grouped by thread.
    case list(selection: Int)
    /// The notifications of one thread.
    case thread(identifier: String, selection: Int)
    /// A pairing code to compare and confirm.
    case pairing(PairingPosition)
    /// The mute menu of a notification's long look.
    case muteMenu(identifier: String, selection: Int)
    /// Do not disturb and the mutes, reached by Up from the watch face.
    case controls(selection: Int)

    /// The notification the screen is about, if it is about one.
    public var notificationIdentifier: String? {
        switch self {
        case .shortLook(let identifier, _), .textReply(let identifier, _, _), .muteMenu(let identifier, _): identifier
        case .longLook(let position): position.identifier
        case .idle, .list, .thread, .pairing, .controls: nil
        }
    }
}

/// Where the long look is scrolled to and which button has the focus.
public struct LongLookPosition: Hashable, Sendable {
    /// The notification shown.
    public var identifier: String
    /// Pixels scrolled from the top of the content.
    public var scroll: Int
    /// The focused button (the category's actions, then Dismiss); `nil` while reading.
    public var focus: Int?

    /// Creates a position.
    public init(identifier: String, scroll: Int = 0, focus: Int? = nil) {
        self.identifier = identifier
        self.scroll = scroll
        self.focus = focus
    }
}

/// The pairing screen's code and buttons.
public struct PairingPosition: Hashable, Sendable {
    /// The 6-digit code.
    public var code: String
    /// Whether the code is BlueZ's bonding passkey (Bluetooth's own pairing, first) rather than
    /// Relay's code (the pairing of the two agents, after it): the screen says which.
    public var isBluetoothPasskey: Bool
    /// Whether Confirm (rather than Reject) has the focus.
    public var confirmFocused: Bool
    /// Whether the user answered and the screen waits for the other side.
    public var answered: Bool

    /// Creates a position.
    public init(
        code: String, isBluetoothPasskey: Bool = false, confirmFocused: Bool = true, answered: Bool = false
    ) {
        self.code = code
        self.isBluetoothPasskey = isBluetoothPasskey
        self.confirmFocused = confirmFocused
        self.answered = answered
    }
}
