import PhoneAgent
import RelayCLI
import struct RelayCore.FilterRules
import RelayDBus
import RelayFreedesktop
import RelayFreedesktopDBus
import Foundation
import RelayStore
import RelaySystem
import Synchronization

/// `org.freedesktop.Notifications` (spec 1.2) on the bus: the D-Bus side of the phone's centre.
/// It decodes the calls, gives the answers and emits the signals; what they do to the centre,
/// the mirror and the stored state is `PhoneCoordinator`'s (PhoneAgent), which method handlers
/// (D-Bus tasks), expiry timers (tasks) and the control socket (its own thread) all go through.
final class NotificationServer: Sendable {
    static let busName = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private let connection: DBusConnection
    /// The centre, the mirror and the signals' order.
    let coordinator: PhoneCoordinator
    /// A round of dispatching is under way on the bus thread (`committingDeliveriesByRound`):
    /// the `Notify` calls its handler delivers wait for the round's end. Only that thread sets
    /// it, and only calls delivered from the handler itself consult it. Read without the lock,
    /// so that a round that handles no `Notify` never waits for it.
    private let roundUnderWay = Atomic<Bool>(false)
    /// The round under way left calls waiting in the coordinator.
    private let roundDeferred = Atomic<Bool>(false)
    let log: AgentLogSink
    /// `Inhibit`, `UnInhibit` and `Inhibited`, and the phone's do not disturb the mirror reads.
    let doNotDisturb: DoNotDisturbSwitch?

    init(
        connection: DBusConnection, log: AgentLogSink, mirror: MirrorCoordinator? = nil,
        restored: [CentreRecord] = [], restoredApps: AppRequests = AppRequests(), restoredLastID: UInt32 = 0,
        isLocked: @escaping @Sendable () -> Bool = { false }, doNotDisturb: DoNotDisturbSwitch? = nil,
        filterRules: FilterRuleBook? = nil
    ) {
        self.connection = connection
        self.log = log
        self.doNotDisturb = doNotDisturb
        images = mirror.map { ImageIntake(ingest: AttachmentIngest(store: $0.link.attachments)) }
        coordinator = PhoneCoordinator(
            effects: PhoneCoordinator.Effects(
                emit: { signals in Self.emit(signals, on: connection, log: log) },
                log: { level, line in log(line, level: level) }),
            mirror: mirror, restored: restored, restoredApps: restoredApps, restoredLastID: restoredLastID, isLocked: isLocked,
            alertPolicy: { doNotDisturb?.policy() }, mergePreferences: { doNotDisturb?.merge($0) ?? false },
            filterRules: { filterRules?.current() ?? FilterRules() })
    }

    /// Takes attached images into the phone's store for the wearable; `nil` without a mirror.
    var ingest: AttachmentIngest? { coordinator.mirror.map { AttachmentIngest(store: $0.link.attachments) } }
    /// The same for `Notify` calls, off the bus thread.
    let images: ImageIntake?

    // MARK: The interface

    var interface: DBusInterface {
        DBusInterface(
            Self.busName,
            methods: [
                DBusMethod(
                    "Notify",
                    inputs: [
                        .init("app_name", "s"), .init("replaces_id", "u"), .init("app_icon", "s"), .init("summary", "s"),
                        .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire_timeout", "i"),
                    ],
                    outputs: [.init("id", "u")],
                    reading: { [self] call, arguments, reply in try notify(call, &arguments, reply) }
                ),
                DBusMethod("CloseNotification", inputs: [.init("id", "u")]) { [self] call, reply in
                    let id = try call.arguments.decode(0, as: UInt32.self)
                    // Behind the sender's Notify calls still taking in an image, as it sent them.
                    inOrder(after: call.sender, reply) { [self] in
                        coordinator.act { centre in centre.close(id, reason: .closedByCall) }
                        reply.succeed([])
                    }
                },
                DBusMethod("GetCapabilities", outputs: [.init("capabilities", "as")]) { _ in
                    [.array(FreedesktopMapping.capabilities)]
                },
                DBusMethod(
                    "GetServerInformation",
                    outputs: [.init("name", "s"), .init("vendor", "s"), .init("version", "s"), .init("spec_version", "s")]
                ) { _ in
                    let info = FreedesktopMapping.serverInformation
                    return [.string(info.0), .string(info.1), .string(info.2), .string(info.3)]
                },
            ] + (doNotDisturb?.methods ?? []),
            signals: [
                DBusSignalDeclaration("NotificationClosed", arguments: [.init("id", "u"), .init("reason", "u")]),
                DBusSignalDeclaration("ActionInvoked", arguments: [.init("id", "u"), .init("action_key", "s")]),
                DBusSignalDeclaration("ActivationToken", arguments: [.init("id", "u"), .init("activation_token", "s")]),
                DBusSignalDeclaration("NotificationReplied", arguments: [.init("id", "u"), .init("text", "s")]),
            ],
            properties: doNotDisturb.map { [$0.property] } ?? [])
    }

    /// Answers only once the notification is on disk: the committer's thread gives the reply
    /// right after the commit (no task waits for it), and nothing holds the lock meanwhile, so
    /// the commits of calls that arrive together are shared. Runs on the D-Bus loop thread.
    private func notify(_ message: DBusMethodCall, _ arguments: inout DBusArgumentReader, _ reply: DBusPendingReply)
        throws(DBusError)
    {
        var call = try NotifyCall.decode(reading: &arguments)
        let sender = message.sender
        if let images {
            // Images are read and reduced before the lock, and off this thread.
            let now = images.handle(call, from: sender ?? "") { [self] call in
                deliver(call, from: sender, reply, withinDispatch: false)
            } refuse: {
                reply.fail(Self.stopping)
            }
            guard let now else { return }
            call = now
        }
        deliver(call, from: sender, reply, withinDispatch: true)
    }

    /// Runs `work` (a call of `sender`'s) now, or behind that sender's calls still taking in an image.
    private func inOrder(after sender: String?, _ reply: DBusPendingReply, _ work: @escaping @Sendable () -> Void) {
        guard let images else { return work() }
        images.inOrder(after: sender ?? "", work) { reply.fail(Self.stopping) }
    }

    /// The answer to a call still waiting its turn when the agent began to stop: nothing was done.
    static let stopping = DBusError(.failed, "relay-phone is stopping; the call was not carried out, try again when it is back")

    /// Puts a `Notify` call, its images taken in, into the centre; the reply follows the commit.
    /// A call delivered by the handler itself (`withinDispatch`) during a round of dispatching
    /// waits for the round's end, to be stored with the others of the round
    /// (`committingDeliveriesByRound`); one delivered later (its image taken in on the image
    /// queue) is handed on at once, with any the round has waiting, so that it never waits for
    /// a round that may itself wait for images.
    private func deliver(_ call: PostedNotification, from sender: String?, _ reply: DBusPendingReply, withinDispatch: Bool) {
        let deferring = withinDispatch && roundUnderWay.load(ordering: .relaxed)
        coordinator.deliver(call, from: sender, deferring: deferring) { id in reply.succeed([.uint32(id)]) }
        if deferring { roundDeferred.store(true, ordering: .relaxed) }
    }

    /// Runs `round` (a round of the bus's dispatching) with the `Notify` calls it handles stored
    /// in one job of the committer and answered once that is committed: per call, the job, its
    /// savepoint and its hand-over to the mirror would otherwise cost about as much as storing
    /// the notification itself.
    func committingDeliveriesByRound(_ round: () -> Void) {
        roundUnderWay.store(true, ordering: .relaxed)
        round()
        roundUnderWay.store(false, ordering: .relaxed)
        guard roundDeferred.exchange(false, ordering: .relaxed) else { return }
        coordinator.commitDeliveries()
    }

    // MARK: Signals

    /// Emits the signals on the bus.
    static func emit(_ signals: [NotificationSignal], on connection: DBusConnection, log: AgentLogSink) {
        for signal in signals {
            let (name, arguments): (String, [DBusValue]) =
                switch signal {
                case .actionInvoked(let id, let key): ("ActionInvoked", [.uint32(id), .string(key)])
                case .replied(let id, let text): ("NotificationReplied", [.uint32(id), .string(text)])
                case .closed(let id, let reason): ("NotificationClosed", [.uint32(id), .uint32(reason.rawValue)])
                case .response: ("Response", [])
                }
            do {
                if case .response(let response) = signal {
                    // Relay's own API answers the app that posted, and nobody else.
                    try RichNotificationService.emit(response, on: connection)
                } else {
                    // Broadcast, as the reference servers do: clients match on the interface, not on
                    // being the destination. The sender is kept in the centre for unicast later.
                    try connection.emitSignal(path: Self.path, interface: Self.busName, name: name, arguments: arguments)
                }
            } catch {
                log.warning("relay-phone: could not emit \(name): \(error)")
            }
        }
    }
}
