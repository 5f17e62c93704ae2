import Foundation
import RelayTestSupport
import Testing

/// The session bus going away (the user logs out) stops relay-phone the way a signal does: every
/// service in its order, the socket removed, and an exit status and line that say why.
@Suite struct PhoneBusLossTests {
    @Test(.timeLimit(.minutes(2))) func aPhoneWhoseBusGoesAwayStopsInOrderAndSaysWhy() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            try await rig.startWearable()
            try await rig.startPhone()
            await bus.stop()
            try await rig.until("relay-phone has stopped") { rig.phoneLines().contains { $0.contains("the bus went away; relay-phone stopped") } }
            let shutdown = await rig.stopAll()
            #expect(shutdown.stopped.first { $0.name == "relay-phone" }?.status == 1, "\(shutdown.stopped)")
            #expect(!shutdown.socketsLeft.contains(rig.phoneSocket), "\(shutdown.socketsLeft)")
            let lines = rig.phoneLines()
            #expect(!lines.contains { $0.contains("could not record the clean stop") || $0.contains("finished unexpectedly") }, "\(lines.suffix(10))")
        }
    }
}
