/// What a Relay wearable does with a bonding request BlueZ's agent receives: Relay bonds only
/// by numeric comparison, on its own adapter, while it has no partner. Everything else is
/// refused at once, with a reason for the log.
public enum BondingRule {
    /// The outcome for one request.
    public enum Decision: Sendable, Hashable {
        /// Show the passkey and let the person at the wrist confirm it or not.
        case ask(passkey: String)
        /// Refuse without asking anyone; the reason says why and what to do.
        case refuse(String)
    }

    /// Decides `request`, received by the agent of the adapter at `adapterPath`, while the
    /// wearable `isPaired` (or in the middle of Relay's own pairing) or not.
    ///
    /// - A device below another adapter: that adapter's bonding is not Relay's to allow
    ///   (bluetoothd has one default agent for all of them).
    /// - Already paired: a second phone must wait until the first is unpaired.
    /// - No passkey ("just works", the other side has no screen or no buttons): nothing proves
    ///   that the device is the phone in the person's hand, so no bond is made.
    public static func decide(_ request: PasskeyRequest, adapterPath: String, isPaired: Bool) -> Decision {
        guard request.device.hasPrefix(adapterPath + "/") else {
            return .refuse("not on this wearable's adapter (\(adapterPath)); Relay bonds only on its own")
        }
        guard !isPaired else { return .refuse("already paired; unpair first (relayctl unpair)") }
        guard let passkey = request.passkeyText else {
            return .refuse(
                "no passkey to compare (\"just works\"); Relay bonds only by numeric comparison: pair from the phone with relayctl pair")
        }
        return .ask(passkey: passkey)
    }
}
