import RelayBluetooth
import Testing

@Suite("What a wearable does with a bonding request")
struct BondingRuleTests {
    let adapter = "/org/bluez/hci1"
    let phone = "/org/bluez/hci1/dev_00_AA_01_00_00_01"

    @Test("a passkey on its own adapter, while unpaired, goes to the person at the wrist")
    func passkeyAsks() {
        let decision = BondingRule.decide(PasskeyRequest(device: phone, passkey: 4_821), adapterPath: adapter, isPaired: false)
        #expect(decision == .ask(passkey: "004821"))
    }

    @Test("just works is refused at once, naming relayctl pair")
    func justWorksRefused() {
        let decision = BondingRule.decide(PasskeyRequest(device: phone, passkey: nil), adapterPath: adapter, isPaired: false)
        guard case .refuse(let reason) = decision else {
            Issue.record("just works was not refused: \(decision)")
            return
        }
        #expect(reason.contains("just works") && reason.contains("relayctl pair"))
    }

    @Test("once paired, even a passkey is refused: unpair first")
    func pairedRefuses() {
        let decision = BondingRule.decide(PasskeyRequest(device: phone, passkey: 1), adapterPath: adapter, isPaired: true)
        #expect(decision == .refuse("already paired; unpair first (relayctl unpair)"))
    }

    @Test("a request for another adapter's device is not the wearable's to allow", arguments: [
        "/org/bluez/hci2/dev_00_AA_01_00_00_01", "/org/bluez/hci10/dev_00_AA_01_00_00_01", "/org/bluez/hci1",
    ])
    func otherAdapterRefused(device: String) {
        let decision = BondingRule.decide(PasskeyRequest(device: device, passkey: 1), adapterPath: adapter, isPaired: false)
        guard case .refuse(let reason) = decision else {
            Issue.record("\(device) was not refused")
            return
        }
        #expect(reason.contains("not on this wearable's adapter"))
    }
}
