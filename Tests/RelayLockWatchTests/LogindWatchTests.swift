import Glibc
import RelayDBus
import RelayLockWatch
import RelayTestSupport
import Testing

/// logind's `LockedHint` through python3-dbusmock's logind template on a private "system bus".
@Suite struct LogindWatchTests {
    static let login1 = "org.freedesktop.login1"

    @Test(.timeLimit(.minutes(1))) func followsTheActiveSessionOfSeat0() async throws {
        try await withPrivateBus { system in
            let watcher = LockWatcher(system: try await system.connect(), session: nil) { _ in }
            defer { watcher.stop() }
            var readings = watcher.readings.makeAsyncIterator()
            // No logind yet: absent, not an error.
            #expect(await readings.next() == .logind(locked: nil))

            try await withDBusMock(["--system", "--template", "logind"], owning: Self.login1, on: system) { mock in
                let client = try await system.connect()
                // logind appearing is picked up; the session is found through the seat.
                let first = try await addSession("c1", client)
                #expect(await readings.next() == .logind(locked: false))
                try await setLockedHint(true, first, client)
                #expect(await readings.next() == .logind(locked: true))

                // A new active session on the seat is followed; it is unlocked.
                let second = try await addSession("c2", client)
                #expect(await readings.next() == .logind(locked: false))
                try await setLockedHint(true, second, client)
                #expect(await readings.next() == .logind(locked: true))
                // The inactive session no longer counts: the next reading is logind leaving.
                try await setLockedHint(false, first, client)
                await mock.stop(SIGTERM)
                #expect(await readings.next() == .logind(locked: nil))
            }
        }
    }

    private func addSession(_ id: String, _ client: DBusConnection) async throws -> String {
        let reply = try await client.call(
            destination: Self.login1, path: "/org/freedesktop/login1", interface: "org.freedesktop.DBus.Mock",
            method: "AddSession", arguments: [.string(id), .string("seat0"), .uint32(1000), .string("user"), .boolean(true)])
        return try reply.decode(0, as: String.self)
    }

    private func setLockedHint(_ locked: Bool, _ session: String, _ client: DBusConnection) async throws {
        _ = try await client.call(
            destination: Self.login1, path: session, interface: "org.freedesktop.login1.Session", method: "SetLockedHint",
            arguments: [.boolean(locked)])
    }
}
