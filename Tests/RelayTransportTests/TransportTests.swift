import Foundation
import Glibc
import RelayCore
import RelayLink
import RelaySystem
import RelayTestSupport
@testable import RelayTransport
import RelayWire
import Testing

@Suite struct TransportTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()
    let total: UInt64 = 500

    /// Runs both sides over one pair of connections and checks the exchange.
    private func exchange(phone: FramedConnection, wearable: FramedConnection) async throws {
        let phoneKey = phoneKey, wearableKey = wearableKey, total = total
        async let phoneResult: DurableSide = {
            var state = DurableSide(epoch: 1)
            var sent: UInt64 = 0
            let outcome = try await runSide(
                over: phone, initiator: true, localKey: phoneKey, partnerKey: wearableKey.publicKey, state: &state,
                sent: &sent, total: total, entry: upsert)
            #expect(outcome == .completed)
            return state
        }()
        async let wearableResult: DurableSide = {
            var state = DurableSide(epoch: 2)
            var sent: UInt64 = 0
            let outcome = try await runSide(
                over: wearable, initiator: false, localKey: wearableKey, partnerKey: phoneKey.publicKey, state: &state,
                sent: &sent, total: total, entry: fired)
            #expect(outcome == .completed)
            return state
        }()
        let (phoneState, wearableState) = try await (phoneResult, wearableResult)
        #expect(phoneState.received == Array(1...total))
        #expect(wearableState.received == Array(1...total))
    }

    @Test func aFullSessionOverASocketpair() async throws {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let phone = try await Transport.adopt(descriptor: fds[0], peer: "socketpair[0]")
        let wearable = try await Transport.adopt(descriptor: fds[1], peer: "socketpair[1]")
        try await exchange(phone: phone, wearable: wearable)
    }

    @Test(arguments: ["unix", "tcp"])
    func aFullSessionOverAListeningSocket(kind: String) async throws {
        let directory = try TemporaryDirectory()
        let endpoint: TransportEndpoint = kind == "unix" ? .unix(path: directory.path + "/link.sock") : .tcp(host: "127.0.0.1", port: 0)
        let (readyStream, readyContinuation) = AsyncStream<TransportEndpoint>.makeStream()
        let (acceptedStream, acceptedContinuation) = AsyncStream<FramedConnection>.makeStream()
        let listener = Task {
            try await Transport.listen(on: endpoint, ready: { readyContinuation.yield($0) }) { connection in
                acceptedContinuation.yield(connection)
                // Keep the accept loop parked while the test uses the connection.
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        defer { listener.cancel() }
        var readyIterator = readyStream.makeAsyncIterator()
        let bound = try #require(await readyIterator.next())
        if case .unix(let path) = bound {
            var info = stat()
            #expect(stat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "the socket must be private to its owner")
        }
        let phone = try await Transport.connect(to: bound)
        var acceptedIterator = acceptedStream.makeAsyncIterator()
        let wearable = try #require(await acceptedIterator.next())
        try await exchange(phone: phone, wearable: wearable)
    }

    /// Connections accepted but not yet taken by the accept loop when the listener's task is
    /// cancelled: NIO drops them, which used to trap in `NIOAsyncWriter`. Now each is closed,
    /// and the process goes on.
    @Test func connectionsWaitingWhenTheListenerStopsAreClosed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/link.sock"
        let (readyStream, readyContinuation) = AsyncStream<TransportEndpoint>.makeStream()
        let (firstStream, firstContinuation) = AsyncStream<Void>.makeStream()
        let listener = Task {
            try await Transport.listen(on: .unix(path: path), ready: { readyContinuation.yield($0) }) { connection in
                // The first connection parks the accept loop, so the others wait in NIO's buffer.
                firstContinuation.yield()
                try? await Task.sleep(for: .seconds(3600))
                await connection.close()
            }
        }
        var readyIterator = readyStream.makeAsyncIterator()
        _ = try #require(await readyIterator.next())
        var clients: [Int32] = []
        defer { for client in clients { Glibc.close(client) } }
        for _ in 0..<32 { clients.append(try Self.connectUnix(path)) }
        var firstIterator = firstStream.makeAsyncIterator()
        _ = await firstIterator.next()
        listener.cancel()
        _ = await listener.result
        // Every client sees its connection end: the listener closed what it had not served.
        for client in clients { #expect(Self.waitForEndOfFile(client, milliseconds: 10_000)) }
    }

    private static func connectUnix(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SystemError(call: "socket", code: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let failure = SystemError(call: "connect", code: errno)
            Glibc.close(descriptor)
            throw failure
        }
        return descriptor
    }

    /// Whether `descriptor` reads end of file (or a reset) within the time, skipping any bytes.
    private static func waitForEndOfFile(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) == 1 else { return false }
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return true }
        }
    }

    @Test func connectErrorsSayWhatToDo() async {
        await #expect {
            _ = try await Transport.connect(to: .unix(path: "/nonexistent/relay.sock"))
        } throws: { error in
            "\(error)".contains("is the other agent running with --transport loopback?")
        }
        await #expect {
            _ = try await Transport.connect(to: .tcp(host: "192.0.2.1", port: 7400))
        } throws: { error in
            "\(error)".contains("not a loopback address")
        }
    }

    @Test func rfcommConnectFailuresSayWhatToDo() {
        let refusedKeys = RFCOMMSocket.failure(EACCES, channel: 22)
        #expect(refusedKeys.contains("refused this phone's Bluetooth keys") && refusedKeys.contains("relayctl pair"))
        #expect(RFCOMMSocket.failure(ECONNREFUSED, channel: 22).contains("nothing listens on RFCOMM channel 22"))
        #expect(RFCOMMSocket.failure(EHOSTDOWN, channel: 22).contains("is it on, in range"))
        #expect(RFCOMMSocket.failure(EAGAIN, channel: 22).contains("no answer within"))
        // Anything else keeps the system's words.
        #expect(RFCOMMSocket.failure(ENOMEM, channel: 22) == SystemError.describe(ENOMEM))
    }

    @Test func rfcommWithoutBluetoothSaysSoAndSuggestsLoopback() async throws {
        // This machine's kernel has no AF_BLUETOOTH; on a board with Bluetooth the
        // connection attempt itself fails differently, so only the message is checked there.
        do {
            _ = try await Transport.connect(to: try TransportEndpoint(parsing: "rfcomm:01:23:45:67:89:AB/3"))
            Issue.record("connected to a Bluetooth device that does not exist")
        } catch {
            let text = "\(error)"
            #expect(text.contains("Bluetooth is not available") || text.contains("cannot connect to rfcomm:"))
            if text.contains("Bluetooth is not available") { #expect(text.contains("use --transport loopback")) }
        }
    }

    @Test func endpointsParseAndPrint() throws {
        for text in ["unix:/run/relay/link.sock", "tcp:127.0.0.1:7400", "tcp:[::1]:7400", "rfcomm:01:23:45:67:89:AB/3"] {
            #expect(try TransportEndpoint(parsing: text).description == text)
        }
        for bad in ["unix:", "tcp:localhost", "tcp:127.0.0.1:99999", "rfcomm:01:23/3", "rfcomm:01:23:45:67:89:AB/31", "udp:x"] {
            #expect(throws: TransportError.self) { try TransportEndpoint(parsing: bad) }
        }
    }
}

/// A temporary directory removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/relay-test-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw TransportError.system(SystemError(call: "mkdtemp", code: errno)) }
        path = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
