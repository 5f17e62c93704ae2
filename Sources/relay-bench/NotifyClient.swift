import RelayDBus

/// An application's connection to the notification server: `Notify` with a title of the
/// benchmark's choosing, and `CloseNotification`.
struct NotifyClient: Sendable {
    let connection: DBusConnection

    /// Posts a plain notification (as notify-send sends one: an urgency hint) that never
    /// expires, so it stays until closed; returns the server's id for it. With `replacing`, it
    /// updates that notification in place (`replaces_id`); `hints` go beside the urgency (an
    /// `image-path`, for instance).
    /// `sending` runs on the connection's thread just before the call is written to the bus.
    func notify(
        title: String, replacing: UInt32 = 0, hints: [DBusDictionaryEntry] = [], sending: @escaping @Sendable () -> Void = {}
    ) async throws -> UInt32 {
        let reply = try await connection.call(
            destination: NotifyLoad.busName, path: NotifyLoad.path, interface: NotifyLoad.busName, method: "Notify",
            arguments: [
                .string("relay-bench"), .uint32(replacing), .string(""), .string(title), .string("Benchmark notification body"),
                .array([String]()),
                .dictionary(
                    keySignature: .string, valueSignature: .variant,
                    entries: [DBusDictionaryEntry(key: .string("urgency"), value: .variant(.byte(1)))] + hints),
                .int32(0),
            ], sending: sending)
        return try reply.decode(0, as: UInt32.self)
    }

    /// Closes notification `id`, as an application withdrawing it does.
    func close(_ id: UInt32) async throws {
        _ = try await connection.call(
            destination: NotifyLoad.busName, path: NotifyLoad.path, interface: NotifyLoad.busName,
            method: "CloseNotification", arguments: [.uint32(id)])
    }
}
