import Foundation
import RelayControl
import RelayTestSupport
import Synchronization

/// A private directory under /tmp (short, because a socket path must fit in 108 bytes), removed
/// by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = "/tmp/relay-control-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Serves `count` connections on a dedicated thread (the listener blocks in poll) and records
/// what each came to; `finished` opens after the last one.
final class TestServer: Sendable {
    let listener: ControlListener
    let finished = Gate()
    private let recorded = OutcomeLog()

    init(path: String, count: Int) throws {
        let listener = try ControlListener.open(path: path)
        self.listener = listener
        Thread.detachNewThread { [self] in
            for _ in 0..<count {
                guard let outcome = listener.serveOne(timeoutMilliseconds: -1, Self.answer) else { continue }
                recorded.append(outcome.description)
            }
            finished.open()
        }
    }

    /// The outcomes' log lines, once `finished` is open.
    var outcomes: [String] { recorded.lines }

    /// Echoes the command back, fails `fail`, and answers `large` with a list of 5,000
    /// notification-like entries (about 600 KB, as `delivered` does with thousands open).
    static func answer(_ request: TestRequest) -> ControlResponse {
        switch request.command {
        case "fail": return .failure("asked to fail")
        case "large":
            let entry = ControlValue.object(["id": .int(7), "title": .string(String(repeating: "x", count: 100))])
            return .success(["notifications": .list(Array(repeating: entry, count: 5000))])
        default: return .success(["echo": .string(request.command), "answer": .int(42)])
        }
    }
}

/// Any command at all, for a listener under test that echoes what it gets.
struct TestRequest: ControlRequest {
    static let role = "test"
    static let commands = ["anything"]
    let envelope: ControlEnvelope

    init(_ envelope: ControlEnvelope) { self.envelope = envelope }

    init(_ command: String) { envelope = ControlEnvelope(command: command) }
}

/// Log lines appended from the server thread and read by the test after `finished`.
final class OutcomeLog: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

/// Binds a socket at `path` and closes it, leaving the file behind as a crashed agent would.
func bindWithoutListening(_ path: String) throws {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = unixAddress(path)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

/// The address of a socket path (the tests' paths are short).
func unixAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    return address
}

/// Sends raw bytes on a fresh connection and returns everything the server answered.
func exchangeRaw(_ bytes: [UInt8], path: String) throws -> String {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = unixAddress(path)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard connected == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    shutdown(descriptor, Int32(SHUT_WR))
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        answer += buffer[..<count]
    }
    return String(decoding: answer, as: UTF8.self)
}
