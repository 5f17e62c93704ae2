extension PhoneLink {
    /// Drops the running session, if any, and connects again at once instead of after the
    /// backoff (`relayctl reconnect`): a link that breaks and comes back, on demand. Nothing is
    /// lost: whatever the wearable has not acknowledged is sent again on the next session.
    public func reconnect(reason: String) {
        state.withLock { _ = $0.commands?.yield(.close(reason)) }
        wakeToConnect()
    }
}
