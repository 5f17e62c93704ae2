import RelayDBus

/// Follows one screensaver service on the session bus: `GetActive` when it appears, then its
/// `ActiveChanged(b)` signal. GNOME and the freedesktop interface share these two members.
struct ScreenSaverWatch: Sendable {
    /// The bus name, which is also the interface name.
    let name: String
    let path: String
    let connection: DBusConnection
    let log: @Sendable (String) -> Void

    /// Reports readings until the task is cancelled or the connection ends.
    func run(report: @Sendable (Bool?) -> Void) async {
        let rules: [DBusMatchRule] = [
            .nameOwnerChanged(name: name), .signal(sender: name, interface: name, member: "ActiveChanged", path: path),
        ]
        let feed: SignalFeed
        do {
            feed = try await SignalFeed.open(on: connection, rules: rules)
        } catch {
            log("lock: cannot watch \(name): \(error)")
            report(nil)
            return
        }
        defer { feed.close() }
        var owner = (try? await connection.nameOwner(of: name)) ?? nil
        report(await read(owner: owner))
        for await message in feed.messages {
            if let change = SignalFeed.ownerChange(message, of: name) {
                owner = change
                report(await read(owner: owner))
            } else if message.sender == owner, message.member == "ActiveChanged", message.interface == name,
                message.path?.rawValue == path, case .boolean(let active)? = message.arguments.first
            {
                report(active)
            }
        }
        if !Task.isCancelled {
            log("lock: lost the session bus; \(name)'s last reading stands")
            report(nil)
        }
    }

    /// The current state by `GetActive`, or `nil` (with a log line) when the service is absent.
    private func read(owner: String?) async -> Bool? {
        guard owner != nil else {
            log("lock: \(name) is not on the session bus; its last reading, if any, stands until it is back")
            return nil
        }
        do {
            let reply = try await connection.call(
                destination: name, path: path, interface: name, method: "GetActive", timeout: .seconds(5))
            guard case .boolean(let active)? = reply.first else { throw DBusError(.invalidArgs, "GetActive returned \(reply)") }
            return active
        } catch {
            log("lock: cannot ask \(name) whether it is active: \(error)")
            return nil
        }
    }
}
