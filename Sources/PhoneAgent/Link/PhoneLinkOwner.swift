public import RelayWire

/// What the phone's link needs from the agent that owns the centre.
///
/// The owner takes its own lock first and then writes the database, always in that order;
/// that is why `apply` is the owner's whole transaction and not a closure the link runs
/// inside one of its own.
public protocol PhoneLinkOwner: Sendable {
    /// Applies an event of the wearable's log: its effect on the centre, the changes that
    /// follow for the wearable and the cursor (`LinkLogTables.applied(db, through: seq)`)
    /// commit in one transaction before this returns; the app hears of it afterwards.
    func apply(seq: UInt64, event: Relay_V1_WearableEvent) throws

    /// Starts a new log epoch whose first entries are a snapshot of what is mirrored: the
    /// wearable lost state the old log can no longer resend, or a new partner was paired (whose
    /// predecessor's logs, `PhoneSchema.forgetLink`, go in the same transaction).
    func startNewEpoch(newPartner: Bool) throws
}
