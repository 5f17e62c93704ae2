import RelayDBus
import RelayLockWatch
import RelayTestSupport
import Synchronization
import Testing

/// The screensavers on a private session bus: GNOME's through python3-dbusmock's template, the
/// freedesktop one as an object this test exports.
@Suite struct ScreenSaverWatchTests {
    static let gnome = "org.gnome.ScreenSaver"
    static let freedesktop = "org.freedesktop.ScreenSaver"

    @Test(.timeLimit(.minutes(1))) func followsBothScreenSaversAsTheyComeAndGo() async throws {
        try await withPrivateBus { session in
            let watcher = LockWatcher(system: nil, session: try await session.connect()) { _ in }
            defer { watcher.stop() }
            var readings = watcher.readings.makeAsyncIterator()
            // Neither runs yet; the two watches report in either order.
            let absent = [await readings.next(), await readings.next()]
            #expect(Set(absent) == [.screenSaver(name: Self.gnome, active: nil), .screenSaver(name: Self.freedesktop, active: nil)])

            try await withDBusMock(["--session", "--template", "gnome_screensaver"], owning: Self.gnome, on: session) { _ in
                #expect(await readings.next() == .screenSaver(name: Self.gnome, active: false))
                let client = try await session.connect()
                _ = try await client.call(
                    destination: Self.gnome, path: "/org/gnome/ScreenSaver", interface: Self.gnome, method: "SetActive",
                    arguments: [.boolean(true)])
                #expect(await readings.next() == .screenSaver(name: Self.gnome, active: true))
            }
            #expect(await readings.next() == .screenSaver(name: Self.gnome, active: nil))

            // The freedesktop one, active from the start, then ActiveChanged(false), then gone.
            let service = try await session.connect()
            let active = Mutex(true)
            let interface = DBusInterface(
                Self.freedesktop,
                methods: [DBusMethod("GetActive", outputs: [DBusArgument("active", "b")]) { _ in [.boolean(active.withLock { $0 })] }],
                signals: [DBusSignalDeclaration("ActiveChanged", arguments: [DBusArgument("active", "b")])])
            try service.export([interface], at: "/org/freedesktop/ScreenSaver")
            _ = try await service.requestName(Self.freedesktop)
            #expect(await readings.next() == .screenSaver(name: Self.freedesktop, active: true))
            active.withLock { $0 = false }
            try service.emitSignal(
                path: "/org/freedesktop/ScreenSaver", interface: Self.freedesktop, name: "ActiveChanged", arguments: [.boolean(false)])
            #expect(await readings.next() == .screenSaver(name: Self.freedesktop, active: false))
            _ = try await service.releaseName(Self.freedesktop)
            #expect(await readings.next() == .screenSaver(name: Self.freedesktop, active: nil))
        }
    }
}
