import Foundation
public import RelayDBus
import Synchronization

/// A throwaway `dbus-daemon` for one test, with its own socket directory and a minimal configuration
/// (no service activation, everything allowed), so tests never touch the machine's real buses.
///
/// Use ``withPrivateBus(_:)``: it closes every connection made through ``connect()`` and stops the
/// daemon however the test ends.
public final class PrivateBus: Sendable {
    public let address: String
    private let daemon: ChildProcess
    private let directory: URL
    private let connections = Mutex<[DBusConnection]>([])

    private init(address: String, daemon: ChildProcess, directory: URL) {
        self.address = address
        self.daemon = daemon
        self.directory = directory
    }

    public static func start() async throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-dbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(directory.path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)

        let daemon = try ChildProcess(
            "/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--print-address=1"])
        var lines = daemon.lines.makeAsyncIterator()
        guard let address = await lines.next(), !address.isEmpty else {
            await daemon.stop()
            try? FileManager.default.removeItem(at: directory)
            throw DBusError(.noServer, "dbus-daemon did not print its address")
        }
        return PrivateBus(address: address, daemon: daemon, directory: directory)
    }

    /// A new connection to this bus, closed automatically when the test ends.
    public func connect() async throws -> DBusConnection {
        let connection = try await DBusConnection.connect(to: .address(address))
        connections.withLock { $0.append(connection) }
        return connection
    }

    /// Kills the daemon while connections may still be open, as if the bus had crashed.
    public func kill() async {
        await daemon.stop(SIGKILL)
    }

    public func stop() async {
        let open = connections.withLock { connections in
            defer { connections.removeAll() }
            return connections
        }
        for connection in open { await connection.close() }
        await daemon.stop(SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a private bus that is torn down afterwards, whether `body` returns or throws.
public func withPrivateBus<T>(_ body: (PrivateBus) async throws -> T) async throws -> T {
    let bus = try await PrivateBus.start()
    do {
        let result = try await body(bus)
        await bus.stop()
        return result
    } catch {
        await bus.stop()
        throw error
    }
}

/// Runs a command to completion and returns its exit status and standard output.
public func runCommand(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
) async throws -> (status: Int32, output: String) {
    let command = try ChildProcess(executable, arguments, environment: environment)
    var output: [String] = []
    for await line in command.lines { output.append(line) }
    return (await command.wait(), output.joined(separator: "\n"))
}

/// The next element of `iterator` satisfying `predicate`, or `nil` if the stream ends first.
public func next<Element: Sendable>(
    _ iterator: inout AsyncStream<Element>.Iterator, where predicate: (Element) -> Bool = { _ in true }
) async -> Element? {
    while let element = await iterator.next() {
        if predicate(element) { return element }
    }
    return nil
}
