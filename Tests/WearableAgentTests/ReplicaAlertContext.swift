import Foundation
import RelayCore
import RelayWire
import WearableAgent

extension AlertContext {
    /// The policy's defaults without the gap between vibrations, since these tests post alerting
    /// notifications back to back; the time is one fixed moment. What the gap and the rest of
    /// the policy do is tested in `AlertPolicyTests` and `WearableAlertPolicyTests`.
    static let testing = AlertContext(policy: AlertPolicy(minimumGap: 0), now: Date(timeIntervalSince1970: 1_795_732_200))
}

extension Replica {
    /// Applies a change as the agent does, in ``AlertContext/testing``.
    mutating func apply(_ change: Relay_V1_Change, catchUp: Bool = false) -> [ReplicaEffect] {
        apply(change, catchUp: catchUp, context: .testing)
    }

    /// Fires what is due at `now`, with ``AlertContext/testing``'s policy.
    mutating func fireDue(at now: Date) -> [ReplicaEffect] {
        fireDue(context: AlertContext(policy: AlertContext.testing.policy, now: now))
    }
}
