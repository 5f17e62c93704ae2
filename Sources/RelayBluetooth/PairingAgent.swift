public import RelayDBus
import Synchronization

/// What BlueZ asks a person to confirm while bonding (agent-api.txt, capability `DisplayYesNo`).
public struct PasskeyRequest: Sendable, Hashable {
    /// The remote device's object path.
    public var device: String
    /// The six-digit passkey both devices show; `nil` for "just works" authorization.
    public var passkey: UInt32?

    /// A request from `device`, with `passkey` (`nil` for "just works").
    public init(device: String, passkey: UInt32?) {
        self.device = device
        self.passkey = passkey
    }

    /// The passkey as people read it: six digits, left-padded with zeros.
    public var passkeyText: String? {
        passkey.map { value in
            let digits = String(value % 1_000_000)
            return String(repeating: "0", count: 6 - digits.count) + digits
        }
    }
}

/// Relay's `org.bluez.Agent1` with the `DisplayYesNo` capability: numeric comparison, the
/// passkey shown and a yes/no answer from a person. Every other input method is refused,
/// because a device with a screen and a button never needs one.
public final class PairingAgent: Sendable {
    /// Decides a request: `true` confirms, `false` rejects (`org.bluez.Error.Rejected`). The
    /// decider's task is cancelled when BlueZ cancels the request (`Cancel`, `Release`), so a
    /// decider waiting for a person can take its question down.
    public typealias Decider = @Sendable (PasskeyRequest) async -> Bool
    /// Things worth a log line: passkeys displayed, requests cancelled, the agent released.
    public typealias Observer = @Sendable (String) -> Void

    /// Where the object is exported.
    public let path: String
    private let decide: Decider
    private let observe: Observer
    private let pending = Mutex(Pending())
    private let nextKey = Atomic<Int>(0)

    /// An agent at `path`.
    public init(path: String, decide: @escaping Decider, observe: @escaping Observer = { _ in }) {
        self.path = path
        self.decide = decide
        self.observe = observe
    }

    /// Exports the object on `connection`.
    public func export(on connection: DBusConnection) throws {
        try connection.export([interface], at: path)
    }

    /// The `org.bluez.Agent1` interface.
    public var interface: DBusInterface {
        DBusInterface(
            BlueZ.agent,
            methods: [
                DBusMethod("Release") { [self] _ in
                    observe("bluetooth: bluetoothd released the pairing agent")
                    cancelAll()
                    return []
                },
                DBusMethod("RequestPinCode", inputs: [DBusArgument("device", "o")], outputs: [DBusArgument("pincode", "s")]) { _ in
                    throw Self.rejected("Relay pairs by numeric comparison only; no PIN code is used")
                },
                DBusMethod("DisplayPinCode", inputs: [DBusArgument("device", "o"), DBusArgument("pincode", "s")]) { _ in
                    throw Self.rejected("Relay pairs by numeric comparison only; no PIN code is used")
                },
                DBusMethod("RequestPasskey", inputs: [DBusArgument("device", "o")], outputs: [DBusArgument("passkey", "u")]) { _ in
                    throw Self.rejected("Relay pairs by numeric comparison only; no passkey is typed")
                },
                DBusMethod(
                    "DisplayPasskey",
                    inputs: [DBusArgument("device", "o"), DBusArgument("passkey", "u"), DBusArgument("entered", "q")]
                ) { [self] call in
                    let request = PasskeyRequest(
                        device: try call.arguments.decode(0, as: DBusObjectPath.self).rawValue,
                        passkey: try call.arguments.decode(1, as: UInt32.self))
                    observe("bluetooth: passkey \(request.passkeyText ?? "") for \(request.device)")
                    return []
                },
                DBusMethod("RequestConfirmation", inputs: [DBusArgument("device", "o"), DBusArgument("passkey", "u")]) { [self] call in
                    let request = PasskeyRequest(
                        device: try call.arguments.decode(0, as: DBusObjectPath.self).rawValue,
                        passkey: try call.arguments.decode(1, as: UInt32.self))
                    let arrivedAfter = cancellations
                    try await answer(request, arrivedAfter: arrivedAfter)
                    return []
                },
                DBusMethod("RequestAuthorization", inputs: [DBusArgument("device", "o")]) { [self] call in
                    let request = PasskeyRequest(
                        device: try call.arguments.decode(0, as: DBusObjectPath.self).rawValue, passkey: nil)
                    let arrivedAfter = cancellations
                    try await answer(request, arrivedAfter: arrivedAfter)
                    return []
                },
                DBusMethod("AuthorizeService", inputs: [DBusArgument("device", "o"), DBusArgument("uuid", "s")]) { call in
                    // Only Relay's own service is authorised: this agent exists for Relay's link.
                    let uuid = try call.arguments.decode(1, as: String.self)
                    guard uuid.lowercased() == RelayService.uuid else {
                        throw Self.rejected("Relay's agent authorises only Relay's service, not \(uuid)")
                    }
                    return []
                },
                DBusMethod("Cancel") { [self] _ in
                    observe("bluetooth: bluetoothd cancelled the pairing request")
                    cancelAll()
                    return []
                },
            ])
    }

    /// A request waiting for its decider: the D-Bus call's answer, and the task that decides.
    private struct Waiting {
        var continuation: CheckedContinuation<Bool?, Never>
        var decider: Task<Void, Never>?
    }

    /// The requests waiting, and how many times BlueZ has cancelled.
    private struct Pending {
        var waiting: [Int: Waiting] = [:]
        var cancellations = 0
    }

    /// How many times BlueZ has cancelled so far; read when a request arrives (method handlers
    /// start in arrival order), so a `Cancel` handled before the request reaches ``answer(_:arrivedAfter:)``
    /// still cancels it.
    private var cancellations: Int { pending.withLock { $0.cancellations } }

    /// Asks the decider, unless BlueZ cancels first (also between the request's arrival, after
    /// `cancellations` cancellations, and this call).
    private func answer(_ request: PasskeyRequest, arrivedAfter cancellations: Int) async throws {
        let key = nextKey.add(1, ordering: .relaxed).newValue
        let decide = decide
        let decision: Bool? = await withCheckedContinuation { continuation in
            let cancelledAlready = pending.withLock { pending in
                guard pending.cancellations == cancellations else { return true }
                pending.waiting[key] = Waiting(continuation: continuation)
                return false
            }
            guard !cancelledAlready else {
                continuation.resume(returning: nil)
                return
            }
            let decider = Task { [self] in
                let accepted = await decide(request)
                resolve(key, accepted)
            }
            let cancelledMeanwhile = pending.withLock { pending in
                guard pending.waiting[key] != nil else { return true }
                pending.waiting[key]?.decider = decider
                return false
            }
            if cancelledMeanwhile { decider.cancel() }
        }
        switch decision {
        case true?: return
        case false?: throw Self.rejected("the passkey was not confirmed")
        case nil: throw DBusError(DBusError.Name(rawValue: BlueZ.ErrorName.canceled), "the request was cancelled")
        }
    }

    private func resolve(_ key: Int, _ decision: Bool?) {
        pending.withLock { $0.waiting.removeValue(forKey: key) }?.continuation.resume(returning: decision)
    }

    private func cancelAll() {
        let waiting = pending.withLock { pending in
            defer {
                pending.waiting.removeAll()
                pending.cancellations += 1
            }
            return Array(pending.waiting.values)
        }
        for request in waiting {
            request.continuation.resume(returning: nil)
            request.decider?.cancel()
        }
    }

    private static func rejected(_ message: String) -> DBusError {
        DBusError(DBusError.Name(rawValue: BlueZ.ErrorName.rejected), message)
    }
}
