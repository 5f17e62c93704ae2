import Foundation
import RelayBluetooth
import RelayDBus
import RelayTestSupport

/// The bluetoothd mock (Mock/relay_bluez.py: dbusmock's bluez5 template plus ProfileManager1,
/// agent-driven pairing and the socketpair hand-off) on a private bus standing in for the
/// system bus.
struct BlueZMock {
    /// The template's path, beside this file.
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Mock/relay_bluez.py").path

    let bus: PrivateBus
    let control: DBusConnection

    /// Calls one of the mock's own methods (`org.bluez.Mock` on `/`).
    @discardableResult
    func mock(_ method: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await control.call(
            destination: BlueZ.service, path: "/", interface: "org.bluez.Mock", method: method, arguments: arguments)
    }

    /// Adds the adapter `hci0`.
    func addAdapter() async throws {
        try await mock("AddRelayAdapter", [.string("hci0"), .string("relay-test")])
    }

    /// The profiles registered now: (sender, path, uuid, role).
    func profiles() async throws -> [[String]] {
        let reply = try await mock("Profiles")
        guard case .array(_, let entries)? = reply.first else { return [] }
        return entries.compactMap { entry in
            guard case .structure(let fields) = entry else { return nil }
            return fields.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }
    }

    /// The mock's announcements (`MethodCalled` on /org/bluez): name and string arguments.
    func announcements() async throws -> AsyncStream<DBusMessage> {
        try await control.signals(
            matching: .signal(sender: BlueZ.service, interface: "org.freedesktop.DBus.Mock", member: "MethodCalled", path: BlueZ.managerPath))
    }
}

/// Runs `body` with the bluetoothd mock on a new private bus.
func withBlueZMock<T>(on bus: PrivateBus, _ body: (BlueZMock) async throws -> T) async throws -> T {
    try await withDBusMock(["--template", BlueZMock.template], owning: BlueZ.service, on: bus) { _ in
        try await body(BlueZMock(bus: bus, control: try await bus.connect()))
    }
}

/// The name of a MethodCalled announcement and its arguments as strings.
func announcement(_ message: DBusMessage) -> (String, [String]) {
    guard case .string(let name)? = message.arguments.first else { return ("", []) }
    guard message.arguments.count > 1, case .array(_, let values) = message.arguments[1] else { return (name, []) }
    return (name, values.map { if case .string(let text) = $0.unwrappingVariant { text } else { "\($0)" } })
}
