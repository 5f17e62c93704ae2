import Foundation
import RelayDBus

/// Runs python3-dbusmock on a private bus until `body` ends, with its bus name owned first.
///
/// `arguments` follow `-m dbusmock` (a template, or name, path and interface). The mock's name is
/// awaited through `NameOwnerChanged`, so `body` can call it at once; the mock is stopped however
/// `body` ends.
public func withDBusMock<T>(
    _ arguments: [String], owning name: String, on bus: PrivateBus, _ body: (ChildProcess) async throws -> T
) async throws -> T {
    let watcher = try await bus.connect()
    var owners = try await watcher.signals(matching: .nameOwnerChanged(name: name)).makeAsyncIterator()
    // Both variables, whichever bus the template picks by default.
    let mock = try ChildProcess(
        "/usr/bin/python3", ["-m", "dbusmock"] + arguments,
        environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "DBUS_SESSION_BUS_ADDRESS": bus.address])
    do {
        let owned = await next(&owners) { $0.arguments.count == 3 && $0.arguments[2] != .string("") }
        guard owned != nil else { throw DBusError(.noServer, "dbusmock never owned \(name)") }
        let result = try await body(mock)
        await mock.stop(SIGTERM)
        return result
    } catch {
        await mock.stop(SIGTERM)
        throw error
    }
}
