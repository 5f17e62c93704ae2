import Foundation
import Glibc
import RelayTestSupport
import RelayWire
import Synchronization

/// A switch in the link between relay-phone and relay-wearable, for `relay-bench catch-up`:
/// a Unix-socket proxy that relay-phone connects to instead of the wearable's link socket,
/// moving bytes both ways unchanged. Switched off, it ends the connections it carries and
/// refuses new ones (accepts and closes at once), as a wearable out of radio range would:
/// both agents keep running and see their session end. Switched on, it forwards again and
/// notes when the first connection through it came (`CLOCK_MONOTONIC`): the link is back.
/// It also counts the link's frames each way (`frames`), read with the link's own decoder.
///
/// Plain threads and blocking calls: two connections at most, and nothing here may be
/// delayed behind the benchmark's own tasks.
final class LinkSwitch: Sendable {
    /// Where relay-phone connects (its `--peer`).
    let path: String
    private let upstream: String
    private let listener: Int32

    private struct State {
        var up = true
        var stopped = false
        /// Both descriptors of every connection in progress.
        var connections: Set<Int32> = []
        /// When the first connection after `switchOn` was accepted and forwarded.
        var connectedSinceOn: Int64?
        /// Connections accepted and closed at once while off.
        var refused = 0
        /// Frames passed on, since the start.
        var frames = FrameCounts()
        /// Connections forwarded, since the start.
        var forwarded = 0
    }

    /// Frames the switch passed on each way.
    struct FrameCounts: Sendable {
        var toWearable = 0
        var toPhone = 0
    }

    private let state = Mutex(State())
    /// Opens when the accepting thread has stopped.
    private let finished = Gate()

    /// Listens on `path` and forwards each connection to `upstream`; starts switched on.
    init(path: String, upstream: String) throws {
        let descriptor = try Self.socket()
        do {
            try Self.withAddress(path) { address, length in
                guard bind(descriptor, address, length) == 0, listen(descriptor, 16) == 0 else {
                    throw BenchError("the link switch cannot listen on \(path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            close(descriptor)
            throw error
        }
        self.path = path
        self.upstream = upstream
        listener = descriptor
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Ends every connection and refuses new ones until `switchOn`.
    func switchOff() {
        state.withLock { state in
            state.up = false
            // Under the lock: a pump removes its descriptors here before it closes them, so
            // none of these can have been closed and reused.
            for descriptor in state.connections { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Forwards connections again; `connectedSinceOn` tells when the first one came.
    func switchOn() {
        state.withLock { state in
            state.up = true
            state.connectedSinceOn = nil
        }
    }

    /// When the first connection after the last `switchOn` was forwarded (`CLOCK_MONOTONIC` ns).
    var connectedSinceOn: Int64? { state.withLock { $0.connectedSinceOn } }

    /// Connections refused while switched off, since the start.
    var refused: Int { state.withLock { $0.refused } }

    /// Frames passed on each way since the start, over every connection (the preamble's and the
    /// handshake's included: each is a frame).
    var frames: FrameCounts { state.withLock { $0.frames } }

    /// Connections forwarded since the start: one more means the phone connected again.
    var forwarded: Int { state.withLock { $0.forwarded } }

    /// Ends every connection, stops accepting and removes the socket.
    func stop() async {
        switchOff()
        state.withLock { $0.stopped = true }
        // The accepting thread polls with a timeout, so it sees the flag within one interval.
        await finished.wait()
        close(listener)
        unlink(path)
    }

    private func acceptLoop() {
        while !state.withLock({ $0.stopped }) {
            var polled = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            // A short timeout only so that `stop` is noticed; connections are taken as they come.
            guard poll(&polled, 1, 100) > 0 else { continue }
            // accept4 is not in Glibc's module; close-on-exec follows at once (a child spawned in
            // between would only hold a copy of the connection until it execs).
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let accepted = MonotonicClock.nanoseconds()
            let server = state.withLock { $0.up } ? try? Self.connect(upstream) : nil
            // Checked again under the lock with the insertion, so a `switchOff` in between wins.
            let admitted = server.map { server in
                state.withLock { state in
                    guard state.up else { return false }
                    state.connections.formUnion([client, server])
                    state.forwarded += 1
                    if state.connectedSinceOn == nil { state.connectedSinceOn = accepted }
                    return true
                }
            } ?? false
            guard admitted, let server else {
                state.withLock { $0.refused += 1 }
                if let server { close(server) }
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in pump(client, server) }
        }
        finished.open()
    }

    /// Moves bytes both ways until either side ends (or `switchOff` shuts both down).
    private func pump(_ client: Int32, _ server: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        // Index 0: what the phone (the client) sends; 1: what the wearable sends.
        var decoders = [FrameDecoder(), FrameDecoder()]
        pumping: while true {
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { break }
            for (index, from) in descriptors.enumerated() where from.revents != 0 {
                let to = index == 0 ? server : client
                let count = buffer.withUnsafeMutableBytes { recv(from.fd, $0.baseAddress, $0.count, 0) }
                guard count > 0, Self.sendAll(buffer[..<count], to: to) else { break pumping }
                decoders[index].append(Data(buffer[..<count]))
                var complete = 0
                // A stream that is not Relay's framing is passed on all the same, just not counted.
                while (try? decoders[index].nextFrame()) != nil { complete += 1 }
                state.withLock { state in
                    if index == 0 { state.frames.toWearable += complete } else { state.frames.toPhone += complete }
                }
            }
        }
        state.withLock { state in
            state.connections.remove(client)
            state.connections.remove(server)
        }
        close(client)
        close(server)
    }

    private static func sendAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            // MSG_NOSIGNAL: a peer gone is an error to return, not a SIGPIPE for the benchmark.
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func socket() throws -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("cannot create a Unix socket: \(String(cString: strerror(errno)))") }
        return descriptor
    }

    private static func connect(_ path: String) throws -> Int32 {
        let descriptor = try socket()
        do {
            try withAddress(path) { address, length in
                guard Glibc.connect(descriptor, address, length) == 0 else {
                    throw BenchError("cannot connect to \(path): \(String(cString: strerror(errno)))")
                }
            }
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Runs `body` with `sockaddr_un` for `path`.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Void) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        // One byte stays for the terminating NUL.
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw BenchError("the socket path \(path) is too long for a Unix socket; pass a shorter --directory")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2) + socklen_t(bytes.count + 1)
        try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
