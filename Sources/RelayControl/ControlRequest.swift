public import Foundation
/// The requests one agent serves, each a case carrying exactly what it needs.
///
/// An agent's listener decodes the wire's `ControlEnvelope` into its own request type, so the
/// agent dispatches by case, exhaustively, and a request it does not know or one missing a member
/// is answered with `ControlRequestError`'s explanation before the agent sees it.
public protocol ControlRequest: Hashable, Sendable {
    /// The agent's role, which names its socket (`wearable.sock`): `wearable` or `phone`.
    static var role: String { get }
    /// Every command name the agent knows, in the order its help lists them.
    static var commands: [String] { get }
    /// The request an envelope asks for; fails naming what is unknown or missing.
    init(_ envelope: ControlEnvelope) throws(ControlRequestError)
    /// The envelope that carries this request.
    var envelope: ControlEnvelope { get }
    /// Whether only the agent's own user may make this request, not its control group's members:
    /// one that writes a file where the caller says, as the agent's user.
    var needsOwner: Bool { get }
}

extension ControlRequest {
    /// The agent that serves these requests, for messages: `relay-wearable`.
    public static var agent: String { "relay-\(role)" }

    /// The command's name.
    public var command: String { envelope.command }

    /// No request needs the owner unless its type says so.
    public var needsOwner: Bool { false }
}

/// Why an envelope is not a request the agent serves, in words that say what to send instead.
public enum ControlRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command is not one of the agent's.
    case unknownCommand(String, agent: String, known: [String])
    /// A member the command needs is missing or not usable; `usage` says what it needs.
    case invalid(command: String, usage: String)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .unknownCommand(let command, let agent, let known):
            "unknown command '\(command)'; \(agent) knows: \(known.joined(separator: ", "))"
        case .invalid(_, let usage):
            usage
        }
    }
}

/// relay-wearable's requests (Docs/CONTROL.md, "relay-wearable's commands").
public enum WearableRequest: ControlRequest {
    /// The wearable's state: link, screen, framebuffer, Bluetooth.
    case status
    /// Feeds a key to the screen: `up`, `down`, `select` or `back` (the wearable checks the name).
    case press(key: String)
    /// Writes the framebuffer to a PNG file at an absolute path.
    case screenshot(path: String)
    /// Forgets the phone.
    case unpair
    /// The notifications the screen has.
    case notifications
    /// Answers notification `id` with one of its buttons, with `text` for a text-input action.
    case respond(id: UInt32, action: String, text: String?)
    /// Plays the vibration of an interruption level (the wearable checks the name), to try the
    /// motor.
    case vibrate(level: String)
    /// The decisions about notification `id` (from `relayctl notifications`): alerted or not, and why.
    case why(id: UInt32)
    /// The latest decisions, of the app named `app` when given, newest first.
    case history(app: String?)
    /// The manual do not disturb, shared with the phone: on (until a time), off, or how it stands.
    case doNotDisturb(DoNotDisturbChange)
    /// The mutes, shared with the phone: listed, added or removed.
    case mutes(MuteChange)

    /// `wearable`.
    public static let role = "wearable"
    /// status, press, screenshot, unpair, notifications, respond, vibrate, why, history, dnd, mutes.
    public static let commands = [
        "status", "press", "screenshot", "unpair", "notifications", "respond", "vibrate", "why", "history", "dnd", "mutes",
    ]

    /// Reads an envelope.
    public init(_ envelope: ControlEnvelope) throws(ControlRequestError) {
        let command = envelope.command
        switch command {
        case "status": self = .status
        case "press":
            guard let key = envelope.key else { throw .invalid(command: command, usage: "press needs \"key\": one of up, down, select, back") }
            self = .press(key: key)
        case "screenshot":
            guard let path = envelope.path, path.hasPrefix("/") else {
                throw .invalid(command: command, usage: "screenshot needs \"path\": an absolute path for the PNG file (relayctl makes it absolute)")
            }
            self = .screenshot(path: path)
        case "unpair": self = .unpair
        case "notifications": self = .notifications
        case "respond":
            guard let id = envelope.id, let action = envelope.action else {
                throw .invalid(
                    command: command, usage: "respond needs \"id\" (from `relayctl notifications`) and \"action\" (one of its buttons, or dismiss)")
            }
            self = .respond(id: id, action: action, text: envelope.text)
        case "vibrate":
            guard let level = envelope.level else {
                throw .invalid(command: command, usage: "vibrate needs \"level\": one of passive, active, time-sensitive, critical")
            }
            self = .vibrate(level: level)
        case "why":
            guard let id = envelope.id else { throw .invalid(command: command, usage: "why needs \"id\" (from `relayctl notifications`)") }
            self = .why(id: id)
        case "history": self = .history(app: envelope.text)
        case "dnd": self = .doNotDisturb(try DoNotDisturbChange(envelope))
        case "mutes": self = .mutes(try MuteChange(envelope))
        default: throw .unknownCommand(command, agent: Self.agent, known: Self.commands)
        }
    }

    /// `screenshot` writes a PNG file as the agent's user wherever the caller names: a control
    /// group's member could otherwise replace the agent's keys or database with it.
    public var needsOwner: Bool {
        if case .screenshot = self { true } else { false }
    }

    /// The envelope.
    public var envelope: ControlEnvelope {
        switch self {
        case .status: ControlEnvelope(command: "status")
        case .press(let key): ControlEnvelope(command: "press", key: key)
        case .screenshot(let path): ControlEnvelope(command: "screenshot", path: path)
        case .unpair: ControlEnvelope(command: "unpair")
        case .notifications: ControlEnvelope(command: "notifications")
        case .respond(let id, let action, let text): ControlEnvelope(command: "respond", id: id, action: action, text: text)
        case .vibrate(let level): ControlEnvelope(command: "vibrate", level: level)
        case .why(let id): ControlEnvelope(command: "why", id: id)
        case .history(let app): ControlEnvelope(command: "history", text: app)
        case .doNotDisturb(let change): change.envelope
        case .mutes(let change): change.envelope
        }
    }
}

/// relay-phone's requests (Docs/CONTROL.md, "relay-phone's commands").
public enum PhoneRequest: ControlRequest {
    /// The phone's state: the server, the lock, the link.
    case status
    /// The delivered notifications.
    case delivered
    /// Invokes action `action` of notification `id`, as a click on it would.
    case invoke(id: UInt32, action: String)
    /// Replies `text` to notification `id`, through text-input action `action` (default: the first).
    case reply(id: UInt32, text: String, action: String?)
    /// Dismisses notification `id`.
    case dismiss(id: UInt32)
    /// The manual lock override: locked, unlocked, or none (`lock-auto`: logind and screensavers decide).
    case lockOverride(locked: Bool?)
    /// Starts pairing and waits for the code.
    case pair
    /// The user's answer to the code.
    case pairConfirm(accepted: Bool)
    /// Forgets the wearable.
    case unpair
    /// Drops the session and connects again at once.
    case reconnect
    /// The manual do not disturb: on (until a time), off, or how it stands.
    case doNotDisturb(DoNotDisturbChange)
    /// The mutes, shared with the wearable: listed, added or removed.
    case mutes(MuteChange)
    /// The quiet hours, which the wearable keeps: shown, set or turned off.
    case quietHours(QuietHoursChange)
    /// The filter rules: listed, read again, or a notification run through them and the policy.
    case filter(FilterRequest)
    /// What the phone and the wearable decided about notification `id` (from `delivered`).
    case why(id: UInt32)
    /// The latest decisions, of the app named `app` when given, newest first.
    case history(app: String?)
    /// The canned replies the wearable offers: listed, added, removed, set or back to the configuration's.
    case replies(RepliesChange)

    /// `phone`.
    public static let role = "phone"
    /// status, delivered, invoke, reply, dismiss, lock, unlock, lock-auto, pair, pair-confirm, unpair, reconnect, dnd, mutes,
    /// quiet-hours, filter, why, history, replies.
    public static let commands = [
        "status", "delivered", "invoke", "reply", "dismiss", "lock", "unlock", "lock-auto", "pair", "pair-confirm", "unpair",
        "reconnect", "dnd", "mutes", "quiet-hours", "filter", "why", "history", "replies",
    ]

    /// Reads an envelope.
    public init(_ envelope: ControlEnvelope) throws(ControlRequestError) {
        let command = envelope.command
        switch command {
        case "status": self = .status
        case "delivered": self = .delivered
        case "invoke":
            guard let id = envelope.id, let action = envelope.action else {
                throw .invalid(command: command, usage: "invoke needs \"id\" and \"action\"")
            }
            self = .invoke(id: id, action: action)
        case "reply":
            guard let id = envelope.id, let text = envelope.text else {
                throw .invalid(command: command, usage: "reply needs \"id\" and \"text\"")
            }
            self = .reply(id: id, text: text, action: envelope.action)
        case "dismiss":
            guard let id = envelope.id else { throw .invalid(command: command, usage: "dismiss needs \"id\"") }
            self = .dismiss(id: id)
        case "lock": self = .lockOverride(locked: true)
        case "unlock": self = .lockOverride(locked: false)
        case "lock-auto": self = .lockOverride(locked: nil)
        case "pair": self = .pair
        case "pair-confirm":
            switch envelope.action {
            case "accept": self = .pairConfirm(accepted: true)
            case "reject": self = .pairConfirm(accepted: false)
            default: throw .invalid(command: command, usage: "pair-confirm needs \"action\": accept or reject")
            }
        case "unpair": self = .unpair
        case "reconnect": self = .reconnect
        case "dnd": self = .doNotDisturb(try DoNotDisturbChange(envelope))
        case "mutes": self = .mutes(try MuteChange(envelope))
        case "quiet-hours":
            switch envelope.action {
            case "status", nil: self = .quietHours(.status)
            case "off": self = .quietHours(.off)
            case "set":
                guard let spec = envelope.quietHours else { throw .invalid(command: command, usage: "quiet-hours set needs \"quietHours\"") }
                self = .quietHours(.set(spec))
            default: throw .invalid(command: command, usage: "quiet-hours needs \"action\": status, set (with \"quietHours\") or off")
            }
        case "filter":
            switch envelope.action {
            case "list", nil: self = .filter(.list)
            case "reload": self = .filter(.reload)
            case "test":
                guard let notification = envelope.notification else {
                    throw .invalid(command: command, usage: "filter test needs \"notification\": {app, title, body, category, level, thread}")
                }
                self = .filter(.test(notification))
            default: throw .invalid(command: command, usage: "filter needs \"action\": list, reload or test (with \"notification\")")
            }
        case "why":
            guard let id = envelope.id else { throw .invalid(command: command, usage: "why needs \"id\" (from `relayctl delivered`)") }
            self = .why(id: id)
        case "history": self = .history(app: envelope.text)
        case "replies": self = .replies(try RepliesChange(envelope))
        default: throw .unknownCommand(command, agent: Self.agent, known: Self.commands)
        }
    }

    /// The envelope.
    public var envelope: ControlEnvelope {
        switch self {
        case .status: ControlEnvelope(command: "status")
        case .delivered: ControlEnvelope(command: "delivered")
        case .invoke(let id, let action): ControlEnvelope(command: "invoke", id: id, action: action)
        case .reply(let id, let text, let action): ControlEnvelope(command: "reply", id: id, action: action, text: text)
        case .dismiss(let id): ControlEnvelope(command: "dismiss", id: id)
        case .lockOverride(.some(true)): ControlEnvelope(command: "lock")
        case .lockOverride(.some(false)): ControlEnvelope(command: "unlock")
        case .lockOverride(.none): ControlEnvelope(command: "lock-auto")
        case .pair: ControlEnvelope(command: "pair")
        case .pairConfirm(let accepted): ControlEnvelope(command: "pair-confirm", action: accepted ? "accept" : "reject")
        case .unpair: ControlEnvelope(command: "unpair")
        case .reconnect: ControlEnvelope(command: "reconnect")
        case .doNotDisturb(let change): change.envelope
        case .mutes(let change): change.envelope
        case .quietHours(.status): ControlEnvelope(command: "quiet-hours", action: "status")
        case .quietHours(.off): ControlEnvelope(command: "quiet-hours", action: "off")
        case .quietHours(.set(let spec)): ControlEnvelope(command: "quiet-hours", action: "set", quietHours: spec)
        case .filter(.list): ControlEnvelope(command: "filter", action: "list")
        case .filter(.reload): ControlEnvelope(command: "filter", action: "reload")
        case .filter(.test(let notification)): ControlEnvelope(command: "filter", action: "test", notification: notification)
        case .why(let id): ControlEnvelope(command: "why", id: id)
        case .history(let app): ControlEnvelope(command: "history", text: app)
        case .replies(let change): change.envelope
        }
    }
}

/// What `relayctl replies` asks of the canned replies the wearable offers for text-input actions.
public enum RepliesChange: Sendable, Hashable {
    /// The replies in force and where they come from.
    case list
    /// One more, at the end.
    case add(String)
    /// This one no more.
    case remove(String)
    /// These, in this order, replacing all.
    case set([String])
    /// The configuration's again (phone.toml's `[replies]`).
    case reset

    init(_ envelope: ControlEnvelope) throws(ControlRequestError) {
        switch envelope.action {
        case "list", nil: self = .list
        case "add", "remove":
            guard let text = envelope.text else {
                throw .invalid(command: "replies", usage: "replies \(envelope.action ?? "") needs \"text\": the reply")
            }
            self = envelope.action == "add" ? .add(text) : .remove(text)
        case "set":
            guard let replies = envelope.replies else { throw .invalid(command: "replies", usage: "replies set needs \"replies\": a list of texts") }
            self = .set(replies)
        case "reset": self = .reset
        default: throw .invalid(command: "replies", usage: "replies needs \"action\": list, add or remove (with \"text\"), set (with \"replies\") or reset")
        }
    }

    var envelope: ControlEnvelope {
        switch self {
        case .list: ControlEnvelope(command: "replies", action: "list")
        case .add(let text): ControlEnvelope(command: "replies", action: "add", text: text)
        case .remove(let text): ControlEnvelope(command: "replies", action: "remove", text: text)
        case .set(let replies): ControlEnvelope(command: "replies", action: "set", replies: replies)
        case .reset: ControlEnvelope(command: "replies", action: "reset")
        }
    }
}

/// What `relayctl filter` asks of the phone's filter rules.
public enum FilterRequest: Sendable, Hashable {
    /// The rules in force, and the file's problem if it was refused.
    case list
    /// Reads the file again (as SIGHUP does).
    case reload
    /// What the rules and the policy would decide for this notification, without posting it.
    case test(NotificationProbe)
}

/// What `relayctl quiet-hours` asks of the quiet hours the phone sets for the wearable.
public enum QuietHoursChange: Sendable, Hashable {
    /// How they stand.
    case status
    /// These, replacing the wearable's configured ones.
    case set(QuietHoursSpec)
    /// None, not even the configured ones.
    case off
}

/// What `relayctl dnd` asks of the manual do not disturb (shared by both agents).
public enum DoNotDisturbChange: Sendable, Hashable {
    /// How it stands, with the inhibitors.
    case status
    /// On until `until` (`nil`: until turned off).
    case on(until: Date?)
    /// Off (inhibitions by applications stay theirs).
    case off

    init(_ envelope: ControlEnvelope) throws(ControlRequestError) {
        switch envelope.action {
        case "on": self = .on(until: envelope.until.map(Date.init(timeIntervalSince1970:)))
        case "off": self = .off
        case "status", nil: self = .status
        default: throw .invalid(command: "dnd", usage: "dnd needs \"action\": on (with \"until\", seconds since 1970, or none), off or status")
        }
    }

    var envelope: ControlEnvelope {
        switch self {
        case .status: ControlEnvelope(command: "dnd", action: "status")
        case .off: ControlEnvelope(command: "dnd", action: "off")
        case .on(let until): ControlEnvelope(command: "dnd", action: "on", until: until?.timeIntervalSince1970)
        }
    }
}

/// What `relayctl mutes` asks of the mutes (shared by both agents). A thread is named by its
/// identifier on the phone and by its key (from `relayctl notifications`) on the wearable.
public enum MuteChange: Sendable, Hashable {
    /// The mutes in force.
    case list
    /// Mutes `app` (or its `thread`) until `until` (`nil`: always).
    case add(app: String, thread: String?, until: Date?)
    /// Removes the mute of `app` (or of its `thread`).
    case remove(app: String, thread: String?)

    /// The longest app name a mute takes, in bytes (what the link carries).
    public static let maximumAppBytes = 256

    init(_ envelope: ControlEnvelope) throws(ControlRequestError) {
        switch envelope.action {
        case "list", nil: self = .list
        case "add", "remove":
            guard let app = envelope.app, !app.isEmpty else {
                throw .invalid(command: "mutes", usage: "mutes \(envelope.action ?? "") needs \"app\": the app's name, as `relayctl mutes` or the notification shows it")
            }
            guard app.utf8.count <= Self.maximumAppBytes else {
                throw .invalid(command: "mutes", usage: "the app's name is \(app.utf8.count) bytes long, more than \(Self.maximumAppBytes); give it as the notifications show it")
            }
            let thread = envelope.thread.flatMap { $0.isEmpty ? nil : $0 }
            self = envelope.action == "add"
                ? .add(app: app, thread: thread, until: envelope.until.map(Date.init(timeIntervalSince1970:)))
                : .remove(app: app, thread: thread)
        default: throw .invalid(command: "mutes", usage: "mutes needs \"action\": list, add (with \"app\", \"thread\" and \"until\" as needed) or remove")
        }
    }

    var envelope: ControlEnvelope {
        switch self {
        case .list: ControlEnvelope(command: "mutes", action: "list")
        case .add(let app, let thread, let until):
            ControlEnvelope(command: "mutes", action: "add", until: until?.timeIntervalSince1970, app: app, thread: thread)
        case .remove(let app, let thread): ControlEnvelope(command: "mutes", action: "remove", app: app, thread: thread)
        }
    }
}
