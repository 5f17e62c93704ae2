import Foundation
import RelayCLI
import PhoneAgent
import RelayControl

/// The link's control commands: pairing (`relayctl pair`), unpairing, and the link in `status`.
extension PhoneControl {
    func pair() -> ControlResponse {
        do {
            let offer = try Blocking.run { [link] in try await link.beginPairing() }
            return .success([
                "code": .string(offer.code), "wearable": .string(offer.wearableName), "fingerprint": .string(offer.fingerprint),
            ])
        } catch {
            return .failure("\(error)")
        }
    }

    func confirmPairing(accepted: Bool) -> ControlResponse {
        do {
            let fingerprint = try Blocking.run { [link] in try await link.finishPairing(accepted: accepted) }
            return .success(["partnerFingerprint": .string(fingerprint)])
        } catch {
            return .failure("\(error)")
        }
    }

    func unpair() -> ControlResponse {
        do {
            try link.unpair()
            // The wearable is told over the link; the answer waits until that is written, so
            // that relayctl, which removes the Bluetooth bond next, does not cut it off.
            let link = link
            try? Blocking.run { await link.waitForSessionEnd(within: .seconds(3)) }
            return .success(["link": .string("unpaired")])
        } catch {
            return .failure("could not forget the wearable: \(error)")
        }
    }

    /// The link's part of `status`.
    var linkValues: [String: ControlValue] {
        let status = link.status
        var values: [String: ControlValue] = [
            "link": .string(status.state), "transport": .string(link.connector?.transportName ?? "loopback"),
            // With Bluetooth, the wearable BlueZ connects to, not the unused loopback default.
            "peerEndpoint": .string((link.connector as? PhoneBluetooth)?.target ?? status.endpoint),
            "fingerprint": .string(status.ownFingerprint), "unacknowledged": .int(status.unacknowledged),
            "mirrored": .int(server.coordinator.mirror?.mirroredCount ?? 0), "connectionAttempts": .int(status.attempts),
            "pending": .int(server.coordinator.read { $0.apps.pending.count }),
        ]
        // Bluetooth: adapter, the wearable's address and name, bonded / trusted / connected, and the
        // RSSI with its source (HCI for the connected link, else BlueZ's property) or why HCI gave none.
        for (key, value) in link.connector?.statusValues ?? [:] {
            switch value {
            case .string(let text): values[key] = .string(text)
            case .int(let number): values[key] = .int(number)
            }
        }
        if let name = status.peerName { values["peer"] = .string(name) }
        if let partner = status.partnerFingerprint { values["partnerFingerprint"] = .string(partner) }
        if let since = status.connectedSince { values["connectedSeconds"] = .int(Int(Date().timeIntervalSince(since))) }
        if let error = status.lastError { values["lastError"] = .string(error) }
        if let roundTrip = status.roundTrip {
            values["roundTripMicroseconds"] = .int(Int(roundTrip.components.seconds * 1_000_000 + roundTrip.components.attoseconds / 1_000_000_000_000))
        }
        return values
    }
}
