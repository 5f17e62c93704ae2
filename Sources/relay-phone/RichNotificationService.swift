import Foundation
import RelayCLI
import PhoneAgent
import RelayCore
import RelayDBus

/// Relay's own notification API on the bus (Docs/RICH-API.md): `org.relay.Notifications1` at
/// `/org/relay/Relay1`, under the name `org.relay.Relay1`. Requests and categories travel as the
/// model's JSON (Docs/MODEL.md); every call goes through the server's one lock around the centre.
final class RichNotificationService: Sendable {
    static let busName = "org.relay.Relay1"
    static let path = "/org/relay/Relay1"
    static let interfaceName = "org.relay.Notifications1"

    private let server: NotificationServer
    private let log: AgentLogSink
    private let scheduler: PendingScheduler

    init(server: NotificationServer, log: AgentLogSink) {
        self.server = server
        self.log = log
        // The scheduler's task calls back into the centre; it holds no reference to this service.
        scheduler = PendingScheduler { [server, log] scheduler in
            Self.fireDue(server: server, scheduler: scheduler, log: log)
        }
    }

    /// Exports the interface and takes the name without queueing: a second relay-phone waiting in
    /// line would take requests nobody answers.
    func start(on connection: DBusConnection) async throws {
        try connection.export([interface], at: Self.path)
        switch try await connection.requestName(Self.busName, flags: .doNotQueue) {
        case .primaryOwner, .alreadyOwner:
            // Requests restored from the database wait for their dates like new ones.
            scheduler.plan(read { centre in centre.nextFireDate })
            return
        case .inQueue, .exists:
            let owner = (try? await connection.nameOwner(of: Self.busName)) ?? nil
            throw PhoneError(
                "another relay-phone owns \(Self.busName) on this bus (\(owner ?? "owner unknown")); "
                    + "stop it (or use another bus with --bus) and start relay-phone again")
        }
    }

    /// Stops the scheduler, before the agent exits.
    func stop() {
        scheduler.stop()
    }

    /// Emits a response to the connection that posted the notification, and to nobody else.
    static func emit(_ response: RichResponse, on connection: DBusConnection) throws {
        // A notification whose poster is unknown has nobody to answer.
        guard let destination = response.destination else { return }
        try connection.emitSignal(
            path: path, interface: interfaceName, name: "Response",
            arguments: [.string(response.appID), .string(response.identifier), .string(response.action), .string(response.text)],
            destination: destination)
    }

    // MARK: The interface

    var interface: DBusInterface {
        let appID = DBusArgument("app_id", "s")
        return DBusInterface(
            Self.interfaceName,
            methods: [
                DBusMethod("Post", inputs: [appID, .init("request", "s")], outputs: [.init("id", "u")]) { [self] call in
                    [.uint32(try post(call))]
                },
                DBusMethod("Schedule", inputs: [appID, .init("request", "s")], outputs: [.init("next_fire_date", "s")]) {
                    [self] call in [.string(try schedule(call))]
                },
                DBusMethod("SetCategories", inputs: [appID, .init("categories", "s")]) { [self] call in
                    let app = try call.arguments.decode(0, as: String.self)
                    let categories = try RichJSON.decode([NotificationCategory].self, call.arguments.decode(1, as: String.self), as: "categories")
                    try act { centre throws(RichError) in try centre.setCategories(categories, appID: app) }
                    return []
                },
                DBusMethod("GetCategories", inputs: [appID], outputs: [.init("categories", "s")]) { [self] call in
                    let app = try call.arguments.decode(0, as: String.self)
                    let categories = read { centre in centre.apps.categories[app]?.values.sorted { $0.identifier < $1.identifier } ?? [] }
                    return [.string(try RichJSON.encode(categories))]
                },
                DBusMethod("GetPending", inputs: [appID], outputs: [.init("requests", "s")]) { [self] call in
                    let app = try call.arguments.decode(0, as: String.self)
                    let pending = read { centre in centre.pending(appID: app).map(RichJSON.Pending.init) }
                    return [.string(try RichJSON.encode(pending))]
                },
                DBusMethod("GetDelivered", inputs: [appID], outputs: [.init("notifications", "s")]) { [self] call in
                    let app = try call.arguments.decode(0, as: String.self)
                    let delivered = read { centre in centre.delivered(appID: app).compactMap(RichJSON.Delivered.init) }
                    return [.string(try RichJSON.encode(delivered))]
                },
                DBusMethod("RemovePending", inputs: [appID, .init("identifiers", "as")]) { [self] call in
                    let (app, identifiers) = (try call.arguments.decode(0, as: String.self), try call.arguments.decode(1, as: [String].self))
                    try act { centre throws(RichError) in
                        try centre.removePending(identifiers, appID: app)
                        scheduler.plan(centre.nextFireDate)
                    }
                    return []
                },
                DBusMethod("RemoveDelivered", inputs: [appID, .init("identifiers", "as")]) { [self] call in
                    let (app, identifiers) = (try call.arguments.decode(0, as: String.self), try call.arguments.decode(1, as: [String].self))
                    try act { centre throws(RichError) in try centre.removeDelivered(identifiers, appID: app) }
                    return []
                },
            ],
            signals: [
                DBusSignalDeclaration(
                    "Response", arguments: [appID, .init("identifier", "s"), .init("action", "s"), .init("text", "s")])
            ])
    }

    private func post(_ call: DBusMethodCall) throws -> UInt32 {
        let app = try call.arguments.decode(0, as: String.self)
        let request = takeAttachments(of: try RichJSON.decode(NotificationRequest.self, call.arguments.decode(1, as: String.self), as: "request"))
        return try act { centre throws(RichError) in
            let outcome = try centre.post(request, appID: app, sender: call.sender, now: Date())
            // A pending request with the identifier may have gone.
            scheduler.plan(centre.nextFireDate)
            return outcome.id
        }
    }

    private func schedule(_ call: DBusMethodCall) throws -> String {
        let app = try call.arguments.decode(0, as: String.self)
        let request = takeAttachments(of: try RichJSON.decode(NotificationRequest.self, call.arguments.decode(1, as: String.self), as: "request"))
        let pending = try act { centre throws(RichError) in
            // Relay's time zone is the process's local zone, read when the request is scheduled.
            let pending = try centre.schedule(request, appID: app, sender: call.sender, now: Date(), timeZone: .current)
            scheduler.plan(centre.nextFireDate)
            return pending
        }
        return pending.nextFireDate.formatted(.iso8601)
    }

    /// The request with its images taken into the phone's store (before the lock: reading and
    /// reducing an image takes milliseconds); what stays on the phone is logged.
    private func takeAttachments(of request: NotificationRequest) -> NotificationRequest {
        guard let ingest = server.ingest, !request.content.attachments.isEmpty else { return request }
        var request = request
        let (attachments, notes) = ingest.take(request.content.attachments)
        request.content.attachments = attachments
        for note in notes { log("relay-phone: \(request.identifier): \(note)") }
        return request
    }

    /// Runs an operation under the server's lock; a ``RichError`` becomes the API's D-Bus error.
    private func act<Result>(_ body: (inout NotificationCentre) throws(RichError) -> Result) throws(DBusError) -> Result {
        do {
            return try server.coordinator.withCentre { (centre) throws(RichError) in ([], try body(&centre)) }
        } catch {
            throw RichJSON.dbusError(error)
        }
    }

    /// Reads the centre under the server's lock.
    private func read<Result>(_ body: (NotificationCentre) -> Result) -> Result {
        server.coordinator.withCentre { centre in ([], body(centre)) }
    }

    /// The scheduler's wake-up: delivers what is due and plans the next wake-up, under the lock.
    private static func fireDue(server: NotificationServer, scheduler: PendingScheduler, log: AgentLogSink) {
        let fired = server.coordinator.withCentre { centre in
            let fired = centre.fireDue(now: Date())
            scheduler.plan(centre.nextFireDate)
            return ([], fired)
        }
        for request in fired {
            let next = request.nextFireDate.map { "; next at \($0.formatted(.iso8601))" } ?? ""
            log("relay-phone: scheduled request '\(request.identifier)' of \(request.appID) delivered as notification \(request.id)\(next)")
        }
    }
}
