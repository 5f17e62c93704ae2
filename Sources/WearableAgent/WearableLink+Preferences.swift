public import Foundation
public import RelayCore
import RelayWire
import WearableUI

extension WearableLink {
    /// The alert policy in force: the configuration's with the wishes held (Docs/POLICY.md).
    public var alertPolicy: AlertPolicy {
        state.withLock { $0.replica.contents.alertPolicy(base: configuration.alertPolicy, sharesDoNotDisturb: configuration.sharesDoNotDisturb) }
    }

    /// The context a decision is taken in: the configuration's policy, to which the replica adds
    /// the wishes it holds.
    func alertContext(now: Date, memory: AlertMemory) -> AlertContext {
        var context = AlertContext(policy: configuration.alertPolicy, now: now)
        context.memory = memory
        context.sharesDoNotDisturb = configuration.sharesDoNotDisturb
        return context
    }

    /// Whether the manual do not disturb is shared with the phone (`do_not_disturb.shared`).
    public var sharesDoNotDisturb: Bool { configuration.sharesDoNotDisturb }

    /// Turns the manual do not disturb on (until `until`, `nil`: until turned off) or off, from
    /// the wearable's toggle or `relayctl dnd`: shared with the phone unless
    /// `do_not_disturb.shared` is off.
    public func setDoNotDisturb(on: Bool, until: Date? = nil) throws {
        let value: SharedPreferences.ManualDoNotDisturb = on ? .on(until: until) : .off
        try changePreferences(shared: configuration.sharesDoNotDisturb) { preferences, now in preferences.setDoNotDisturb(value, at: now) }
    }

    /// Mutes `scope` until `until` (`nil`: always), shared with the phone.
    public func mute(_ scope: Mute.Scope, until: Date?) throws {
        try changePreferences(shared: true) { preferences, now in preferences.mute(scope, until: until, at: now) }
    }

    /// Removes the mute of `scope`, shared with the phone; whether there was one.
    @discardableResult
    public func unmute(_ scope: Mute.Scope) throws -> Bool {
        try changePreferences(shared: true) { preferences, now in preferences.unmute(scope, at: now) }
    }

    /// Now by the wearable's clock, which follows the phone's: the time mutes and do not disturb
    /// are stamped and compared in.
    public var now: Date { configuration.clock.now() }

    /// Changes the shared wishes (or, with `shared` false, the wearable's own do not disturb)
    /// at the clock's now: stored, shown, and for the shared ones appended to the phone's
    /// events in the same transaction, so that a change is never kept here and lost there.
    /// Returns whether anything changed.
    @discardableResult
    private func changePreferences(
        shared: Bool, _ body: (inout SharedPreferences, Date) -> SharedPreferences
    ) throws -> Bool {
        let now = configuration.clock.now()
        let effects = try state.withLock { state in
            try update(&state, at: now) { replica, _ in
                if shared {
                    let change = body(&replica.contents.preferences, now)
                    guard !change.isEmpty else { return ReplicaUpdate(effects: []) }
                    replica.contents.preferences.prune(at: now)
                    return ReplicaUpdate(effects: [
                        .preferencesChanged(replica.contents.preferences, shared: true), .report(.preferences(Relay_V1_Preferences(change))),
                    ])
                }
                guard !body(&replica.contents.ownDoNotDisturb, now).isEmpty else { return ReplicaUpdate(effects: []) }
                return ReplicaUpdate(effects: [.preferencesChanged(replica.contents.ownDoNotDisturb, shared: false)])
            }
        }
        try syncUpdates()
        return !effects.isEmpty
    }
}
