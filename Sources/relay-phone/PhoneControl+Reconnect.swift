import RelayControl

extension PhoneControl {
    /// `reconnect`: drops the session with the wearable and connects again at once.
    func reconnect() -> ControlResponse {
        guard link.isPaired else { return .failure("no wearable is paired; run `relayctl pair` first") }
        link.reconnect(reason: "reconnect requested on the phone's control socket")
        return .success(["link": .string(link.status.state)])
    }
}
