import Glibc
@testable import RelayBluetooth
import RelayDBus
import Testing

/// The hand-off of a client profile's socket from `NewConnection` to the `ConnectProfile`
/// caller waiting for it.
@Suite(.timeLimit(.minutes(1))) struct ProfileHandoffTests {
    private static let device = "/org/bluez/hci0/dev_00_11_22_33_44_55"

    private static func connection() throws -> ProfileConnection {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw DBusError(.ioError, "pipe failed") }
        close(ends[1])
        return ProfileConnection(device: device, descriptor: DBusUnixFD(takingOwnershipOf: ends[0]), properties: [:])
    }

    @Test func aConnectionDeliveredFirstOrLaterIsTaken() async throws {
        let handoff = ProfileHandoff()
        handoff.expect(Self.device)
        try handoff.deliver(try Self.connection())
        #expect(await handoff.take(Self.device, timeout: .seconds(30))?.device == Self.device)

        handoff.expect(Self.device)
        let waiting = Task { await handoff.take(Self.device, timeout: .seconds(30)) }
        try handoff.deliver(try Self.connection())
        #expect(await waiting.value?.device == Self.device)
    }

    @Test func anUnexpectedConnectionIsRefused() throws {
        #expect(throws: DBusError.self) { try ProfileHandoff().deliver(try Self.connection()) }
    }

    /// An agent stopping cancels its connect: the wait ends then, not when its timeout runs out.
    @Test func cancellingTheWaitEndsItAtOnce() async throws {
        let handoff = ProfileHandoff()
        handoff.expect(Self.device)
        let started = ContinuousClock.now
        let waiting = Task { await handoff.take(Self.device, timeout: .seconds(600)) }
        waiting.cancel()
        #expect(await waiting.value == nil)
        #expect(ContinuousClock.now - started < .seconds(60))
        // The expectation is gone with it: a connection coming now is refused.
        #expect(throws: DBusError.self) { try handoff.deliver(try Self.connection()) }
    }
}
