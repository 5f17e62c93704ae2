import RelayBluetooth
import Testing

/// The registration lifecycle as a state machine: registered once per owner of org.bluez.
@Suite struct ProfileRegistrationTests {
    @Test func registersWithEachNewOwner() {
        var machine = ProfileRegistration()
        #expect(machine.handle(.ownerAppeared(":1.5")) == [.register(owner: ":1.5")])
        // The same owner again (the start-up query and the signal both saw it): nothing new.
        #expect(machine.handle(.ownerAppeared(":1.5")).isEmpty)
        #expect(machine.handle(.registered(owner: ":1.5")).count == 1)
        #expect(machine.isRegistered)
        // bluetoothd restarts: gone, then a new owner, which gets the profile again.
        #expect(machine.handle(.ownerVanished).count == 1)
        #expect(machine.state == .waitingForBluetoothd)
        #expect(machine.handle(.ownerVanished).isEmpty)
        #expect(machine.handle(.ownerAppeared(":1.9")) == [.register(owner: ":1.9")])
        // A late answer from the old owner changes nothing.
        #expect(machine.handle(.registered(owner: ":1.5")).isEmpty)
        #expect(machine.state == .registering(owner: ":1.9"))
        #expect(machine.handle(.registered(owner: ":1.9")).count == 1)
        #expect(machine.state == .registered(owner: ":1.9"))
    }

    @Test func refusalAndReleaseWaitForTheNextOwner() {
        var machine = ProfileRegistration()
        _ = machine.handle(.ownerAppeared(":1.2"))
        #expect(machine.handle(.registrationFailed(owner: ":1.2", reason: "no")).count == 1)
        #expect(machine.state == .refused(owner: ":1.2", reason: "no"))
        #expect(!machine.isRegistered)
        #expect(machine.handle(.ownerAppeared(":1.3")) == [.register(owner: ":1.3")])
        _ = machine.handle(.registered(owner: ":1.3"))
        #expect(machine.handle(.released).count == 1)
        #expect(machine.state == .released(owner: ":1.3"))
        #expect(machine.handle(.released).isEmpty)
        #expect(machine.handle(.ownerAppeared(":1.4")) == [.register(owner: ":1.4")])
    }
}
