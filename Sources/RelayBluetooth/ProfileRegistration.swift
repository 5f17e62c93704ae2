/// The lifecycle of a profile's registration with bluetoothd, as a state machine: events in,
/// actions out. bluetoothd forgets every registration when it restarts, so each new owner of
/// `org.bluez` gets the profile registered again.
public struct ProfileRegistration: Sendable, Hashable {
    /// Where the registration stands.
    public enum State: Sendable, Hashable {
        /// Nobody owns `org.bluez`.
        case waitingForBluetoothd
        /// `RegisterProfile` sent to this owner.
        case registering(owner: String)
        /// Registered with this owner.
        case registered(owner: String)
        /// This owner refused; waits for another owner.
        case refused(owner: String, reason: String)
        /// This owner released the profile; waits for another owner.
        case released(owner: String)
    }

    /// What happened.
    public enum Event: Sendable, Hashable {
        /// `org.bluez` has this owner (at start, or after `NameOwnerChanged`).
        case ownerAppeared(String)
        /// `org.bluez` lost its owner.
        case ownerVanished
        /// `RegisterProfile` sent to this owner succeeded (or the profile already existed).
        case registered(owner: String)
        /// `RegisterProfile` sent to this owner failed.
        case registrationFailed(owner: String, reason: String)
        /// bluetoothd called `Profile1.Release`.
        case released
    }

    /// What the driver must do, in order.
    public enum Action: Sendable, Hashable {
        /// Call `RegisterProfile` on this owner.
        case register(owner: String)
        /// Tell people (a log line).
        case report(String)
    }

    /// The current state.
    public private(set) var state: State = .waitingForBluetoothd

    /// A registration waiting for bluetoothd.
    public init() {}

    /// Whether the profile is registered now.
    public var isRegistered: Bool {
        if case .registered = state { return true }
        return false
    }

    /// Applies an event and returns what to do.
    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.registering(let owner), .ownerAppeared(let new)) where owner == new,
            (.registered(let owner), .ownerAppeared(let new)) where owner == new:
            return []
        case (_, .ownerAppeared(let owner)):
            state = .registering(owner: owner)
            return [.register(owner: owner)]
        case (.waitingForBluetoothd, .ownerVanished):
            return []
        case (_, .ownerVanished):
            state = .waitingForBluetoothd
            return [.report("bluetoothd left the system bus; the profile will be registered again when it is back")]
        case (.registering(let owner), .registered(let who)) where owner == who:
            state = .registered(owner: owner)
            return [.report("profile \(RelayService.uuid) registered with bluetoothd (\(owner))")]
        case (.registering(let owner), .registrationFailed(let who, let reason)) where owner == who:
            state = .refused(owner: owner, reason: reason)
            return [.report("bluetoothd (\(owner)) refused the profile: \(reason)")]
        case (.registered(let owner), .released):
            state = .released(owner: owner)
            return [.report("bluetoothd released the profile; it will be registered again when bluetoothd restarts")]
        case (_, .registered), (_, .registrationFailed), (_, .released):
            // An answer from an owner that is gone, or a release of nothing: stale.
            return []
        }
    }
}
