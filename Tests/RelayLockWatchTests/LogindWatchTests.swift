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
            #expect(await readings.next() == .logind(nil))

            try await withDBusMock(["--system", "--template", "logind"], owning: Self.login1, on: system) { mock in
                let client = try await system.connect()
                // logind appearing is picked up; the session is found through the seat.
                let first = try await addSession("c1", client)
                #expect(await readings.next() == .logind(.lockable(locked: false)))
                try await setLockedHint(true, first, client)
                #expect(await readings.next() == .logind(.lockable(locked: true)))

                // A new active session on the seat is followed; it is unlocked.
                let second = try await addSession("c2", client)
                #expect(await readings.next() == .logind(.lockable(locked: false)))
                try await setLockedHint(true, second, client)
                #expect(await readings.next() == .logind(.lockable(locked: true)))
                // The inactive session no longer counts: the next reading is logind leaving.
                try await setLockedHint(false, first, client)
                await mock.stop(SIGTERM)
                #expect(await readings.next() == .logind(nil))
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aTextConsoleOrNoSessionIsNoScreen() async throws {
        try await withPrivateBus { system in
            try await withDBusMock(["--system", "--template", "logind"], owning: Self.login1, on: system) { _ in
                let client = try await system.connect()
                let session = try await addSession("c1", client)
                let watcher = LockWatcher(system: try await system.connect(), session: nil) { _ in }
                defer { watcher.stop() }
                var readings = watcher.readings.makeAsyncIterator()
                #expect(await readings.next() == .logind(.lockable(locked: false)))
                // A console autologin: a text session has no lock screen.
                try await setProperty("Type", .string("tty"), of: session, interface: "org.freedesktop.login1.Session", client)
                #expect(await readings.next() == .logind(.noScreen))
                // Something that locks consoles (vlock, physlock) may still say so.
                try await setLockedHint(true, session, client)
                #expect(await readings.next() == .logind(.lockable(locked: true)))
                try await setLockedHint(false, session, client)
                #expect(await readings.next() == .logind(.noScreen))
                // The console starts a desktop (SetType): its lock screen counts again.
                try await setProperty("Type", .string("wayland"), of: session, interface: "org.freedesktop.login1.Session", client)
                #expect(await readings.next() == .logind(.lockable(locked: false)))
                // Logged out to a display manager's login screen: no one is there.
                try await setProperty("Class", .string("greeter"), of: session, interface: "org.freedesktop.login1.Session", client)
                #expect(await readings.next() == .logind(.noScreen))
                // A display manager's own lock screen (LightDM's light-locker): locked.
                try await setProperty("Class", .string("lock-screen"), of: session, interface: "org.freedesktop.login1.Session", client)
                #expect(await readings.next() == .logind(.lockable(locked: true)))
                try await setProperty("Class", .string("user"), of: session, interface: "org.freedesktop.login1.Session", client)
                #expect(await readings.next() == .logind(.lockable(locked: false)))
                // Everyone logged out of the seat.
                try await setProperty(
                    "ActiveSession", .structure([.string(""), .objectPath(try DBusObjectPath("/"))]),
                    of: "/org/freedesktop/login1/seat/seat0", interface: "org.freedesktop.login1.Seat", client)
                #expect(await readings.next() == .logind(.noScreen))
            }
        }
    }

    private func setProperty(_ name: String, _ value: DBusValue, of path: String, interface: String, _ client: DBusConnection) async throws {
        _ = try await client.call(
            destination: Self.login1, path: path, interface: "org.freedesktop.DBus.Properties", method: "Set",
            arguments: [.string(interface), .string(name), .variant(value)])
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
