import RelayWire

/// Whether an upsert alerts (haptic and a woken screen) on the wearable, and why not.
///
/// The phone decides whether a notification *may* alert (its lock state, its settings); the
/// wearable has the last word, because only it knows that it already holds the notification
/// (an update in place never alerts again) or that it is taking a snapshot.
struct AlertDecision {
    let alerts: Bool
    /// For the phone's log, when it does not alert.
    let reason: String

    init(upsert: Relay_V1_Upsert, isUpdate: Bool, inSnapshot: Bool, silent: Bool, catchUp: Bool = false, firedHere: Bool = false) {
        let reason: String? =
            if !upsert.mayAlert { "the phone did not ask for an alert" }
            else if inSnapshot { "part of a snapshot" }
            else if firedHere { "the wearable fired this occurrence itself while apart" }
            else if catchUp { "it waited while the devices were apart" }
            else if isUpdate { "update in place" }
            else if silent { "silent sync is on" }
            else if upsert.content.interruptionLevel == .passive { "passive interruption level" }
            else { nil }
        alerts = reason == nil
        self.reason = reason ?? ""
    }
}
