import Foundation
import RelayTestSupport
import Testing

/// Starts relay-phone in loopback mode on a private bus, with its socket, state and link in a
/// folder of its own; waits for its "ready:" line, runs `body`, then stops it with SIGTERM
/// (expecting a clean exit) however `body` ends.
func withRelayPhone(_ body: (PrivateBus, ChildProcess, String) async throws -> Void) async throws {
    try await withPrivateBus { bus in
        let directory = "/tmp/relay-phone-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/phone.sock"
        let phone = try ChildProcess(
            RelayCtlTests.binary("relay-phone").path,
            [
                "--transport", "loopback", "--bus", bus.address, "--control-socket", socket,
                "--state-directory", socket + ".state", "--peer", socket + ".link",
            ])
        var lines = phone.lines.makeAsyncIterator()
        let ready = await lines.next()
        guard ready?.hasPrefix("ready: org.freedesktop.Notifications on \(bus.address)") == true else {
            await phone.stop()
            Issue.record("relay-phone did not become ready; it printed: \(ready ?? "nothing")")
            return
        }
        do {
            try await body(bus, phone, socket)
        } catch {
            await phone.stop()
            throw error
        }
        kill(phone.pid, SIGTERM)
        #expect(await phone.wait() == 0)
    }
}
