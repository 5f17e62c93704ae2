import RelayDBus
import Synchronization

/// Keeps one profile registered with bluetoothd: exports the profile object, registers it with
/// the current owner of `org.bluez`, and registers it again with each new owner (bluetoothd
/// restarted). Drives ``ProfileRegistration``.
public final class ProfileRegistrar: Sendable {
    private let client: BlueZClient
    private let endpoint: ProfileEndpoint
    private let uuid: String
    private let options: ProfileOptions
    private let log: @Sendable (String) -> Void
    private let machine = Mutex(ProfileRegistration())
    private let events: AsyncStream<ProfileRegistration.Event>
    private let input: AsyncStream<ProfileRegistration.Event>.Continuation
    private let registrations: AsyncStream<ProfileRegistration.State>.Continuation
    /// Every state the registration passes through, for tests and status.
    public let states: AsyncStream<ProfileRegistration.State>

    /// A registrar for `endpoint`; `log` gets one line per change worth telling.
    public init(
        client: BlueZClient, endpoint: ProfileEndpoint, uuid: String = RelayService.uuid, options: ProfileOptions,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.client = client
        self.uuid = uuid
        self.options = options
        self.log = log
        let (events, input) = AsyncStream<ProfileRegistration.Event>.makeStream()
        self.events = events
        self.input = input
        (states, registrations) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(16))
        self.endpoint = ProfileEndpoint(
            path: endpoint.path, connected: { try await endpoint.interfaceConnected($0) },
            disconnectionRequested: { await endpoint.interfaceDisconnectionRequested($0) },
            released: {
                input.yield(.released)
                await endpoint.interfaceReleased()
            })
    }

    /// Whether the profile is registered with the current bluetoothd.
    public var isRegistered: Bool { machine.withLock { $0.isRegistered } }

    /// The current state.
    public var state: ProfileRegistration.State { machine.withLock { $0.state } }

    /// Exports the profile and keeps it registered until the task is cancelled; then
    /// unregisters it (best effort) and removes the object.
    public func run() async throws {
        try endpoint.export(on: client.connection)
        defer { client.connection.unexport(path: endpoint.path) }
        // The subscription comes first, so an owner change between it and the query is not lost.
        let owners = try await client.connection.signals(matching: .nameOwnerChanged(name: BlueZ.service))
        let input = input
        let watcher = Task {
            for await signal in owners {
                guard signal.arguments.count == 3, case .string(let owner) = signal.arguments[2] else { continue }
                input.yield(owner.isEmpty ? .ownerVanished : .ownerAppeared(owner))
            }
        }
        defer { watcher.cancel() }
        if let owner = try await client.connection.nameOwner(of: BlueZ.service) {
            input.yield(.ownerAppeared(owner))
        } else {
            log("bluetooth: bluetoothd (org.bluez) is not on the system bus yet; waiting for it")
        }
        await withTaskCancellationHandler {
            for await event in events {
                await apply(event)
            }
        } onCancel: {
            input.finish()
        }
        if isRegistered { try? await client.unregisterProfile(path: endpoint.path) }
    }

    private func apply(_ event: ProfileRegistration.Event) async {
        let (actions, state) = machine.withLock { machine in (machine.handle(event), machine.state) }
        registrations.yield(state)
        for action in actions {
            switch action {
            case .report(let line):
                log("bluetooth: " + line)
            case .register(let owner):
                let input = input
                let client = client
                let path = endpoint.path
                let uuid = uuid
                let options = options
                // Off the event loop: bluetoothd may call back (Release) while registering.
                Task {
                    do {
                        try await client.registerProfile(path: path, uuid: uuid, options: options)
                        input.yield(.registered(owner: owner))
                    } catch let error as DBusError where error.name.rawValue == BlueZ.ErrorName.alreadyExists {
                        input.yield(.registered(owner: owner))
                    } catch {
                        input.yield(.registrationFailed(owner: owner, reason: "\(error)"))
                    }
                }
            }
        }
    }
}

extension ProfileEndpoint {
    // The registrar wraps an endpoint to see its Release; these forward to the wrapped handlers.
    func interfaceConnected(_ connection: ProfileConnection) async throws {
        try await connectedHandler(connection)
    }

    func interfaceDisconnectionRequested(_ device: String) async {
        await disconnectionHandler(device)
    }

    func interfaceReleased() async {
        await releaseHandler()
    }
}
