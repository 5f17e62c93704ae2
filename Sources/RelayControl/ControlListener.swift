import Foundation
import Glibc
public import RelaySystem
import Synchronization

/// The agent's end of a control socket: a listening Unix stream socket that serves one request
/// per connection, and only to its owner and the members of its group (`ControlAccess`).
///
/// It does no waiting of its own beyond `serveOne`'s timeout: the agent's loop polls `descriptor`
/// together with its other inputs and calls `serveOne(timeoutMilliseconds: 0)` when it is readable,
/// so requests are handled on the thread that owns the screen.
public final class ControlListener: Sendable {
    /// The socket's path.
    public let path: String
    /// The listening descriptor (non-blocking), for the agent's poll loop.
    public let descriptor: Int32
    /// Who is let in: the agent's own user (a test passes another to play a stranger), and a group's members.
    public let access: ControlAccess
    /// Set by `close`; guarded so that closing twice (explicitly, then in deinit) is harmless.
    private let closed = Mutex(false)

    private init(path: String, descriptor: Int32, access: ControlAccess) {
        self.path = path
        self.descriptor = descriptor
        self.access = access
    }

    deinit { close() }

    /// Creates the socket's directory (0700, or 0750 owned by the group) if needed, replaces a
    /// stale socket left by a crash, and listens at `path` with mode 0600, or 0660 owned by the
    /// group. `access` is who may connect; it defaults to this process's effective uid, the one
    /// `SO_PEERCRED` reports for peers, and no group.
    public static func open(path: String, access: ControlAccess? = nil) throws(ControlError) -> ControlListener {
        let access = access ?? ControlAccess(ownerUID: geteuid())
        // The directory must be ours (the process's), whoever is allowed to connect.
        try ControlDirectory.prepare(ControlDirectory.parent(of: path), ownerUID: geteuid(), group: access.group)
        try removeStaleSocket(at: path)
        let descriptor: Int32
        do {
            descriptor = try UnixSocketAddress.makeSocket(flags: Int32(SOCK_NONBLOCK.rawValue))
        } catch { throw .system(error) }
        do throws(ControlError) {
            // Linux creates the socket's file with the socket's own mode (less the umask), so
            // narrowing it before bind leaves no moment at a wider mode. Not the umask: it is
            // process-wide, and another thread's listener could restore it under this bind.
            try UnixSocketAddress.with(path) { address, length throws(SystemError) in
                try SystemError.retrying("fchmod(socket, 0600)") { fchmod(descriptor, 0o600) }
                try SystemError.retrying("bind(\(path))") { bind(descriptor, address, length) }
            }
            do throws(ControlError) {
                // The group's members come in only once the file is the group's, never before.
                if let group = access.group {
                    try ControlDirectory.give(path, to: group, mode: 0o660)
                }
                do {
                    try SystemError.retrying("listen(\(path))") { listen(descriptor, 16) }
                } catch { throw .system(error) }
            } catch {
                unlink(path)
                throw error
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        return ControlListener(path: path, descriptor: descriptor, access: access)
    }

    /// A socket file left at `path` is removed when nothing answers on it; a live one is an error.
    private static func removeStaleSocket(at path: String) throws(ControlError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw .unsafeDirectory(path: path, reason: "a file that is not a socket is in the way")
        }
        let probe: Int32
        do { probe = try UnixSocketAddress.makeSocket() } catch { throw .system(error) }
        defer { Glibc.close(probe) }
        do throws(ControlError) {
            try UnixSocketAddress.connect(probe, to: path)
            throw ControlError.alreadyRunning(path: path)
        } catch .system(let error) where error.code == ECONNREFUSED {
            unlink(path)
        }
    }

    /// Accepts one connection (waiting up to `timeoutMilliseconds`; 0: only if one is pending,
    /// -1: for ever), checks the peer, reads its request, answers with `handle`'s response and
    /// closes it. Returns what happened, for the agent's log; `nil` when no one connected.
    public func serveOne<Request: ControlRequest>(
        timeoutMilliseconds: Int32, _ handle: (Request) -> ControlResponse
    ) -> ControlOutcome? {
        switch accept(timeoutMilliseconds: timeoutMilliseconds) {
        case .none: nil
        case .failed(let error): .failed(error)
        case .connection(let connection): serve(accepted: connection, handle)
        }
    }

    /// What `accept` came to.
    public enum Accepted: Sendable {
        /// A connection, to pass to `serve(accepted:_:)`, which closes it.
        case connection(Int32)
        /// No one connected (or the client gave up before it was accepted).
        case none
        /// A system call failed.
        case failed(SystemError)
    }

    /// Accepts one connection (waiting as `serveOne` does) without reading from it, so that an
    /// agent can answer it on another thread: a request that takes long (pairing waits for the
    /// user) then keeps no other request waiting.
    public func accept(timeoutMilliseconds: Int32) -> Accepted {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        do {
            guard try SystemError.retrying("poll(\(path))", { poll(&poller, 1, timeoutMilliseconds) }) > 0 else { return .none }
        } catch { return .failed(error) }
        do throws(SystemError) {
            let connection = try SystemError.retrying("accept(\(path))") { Glibc.accept(descriptor, nil, nil) }
            // Glibc's module hides accept4 (a _GNU_SOURCE declaration), so close-on-exec comes a
            // moment later; the agent spawns no children, so nothing can inherit it meanwhile.
            do {
                try SystemError.retrying("fcntl(FD_CLOEXEC)") { fcntl(connection, F_SETFD, FD_CLOEXEC) }
            } catch {
                Glibc.close(connection)
                throw error
            }
            return .connection(connection)
        } catch where error.code == EAGAIN || error.code == EWOULDBLOCK || error.code == ECONNABORTED {
            // The client gave up between poll and accept.
            return .none
        } catch {
            return .failed(error)
        }
    }

    /// Serves a connection `accept` returned: checks the peer, reads its request, answers with
    /// `handle`'s response and closes it.
    public func serve<Request: ControlRequest>(accepted connection: Int32, _ handle: (Request) -> ControlResponse) -> ControlOutcome {
        defer { Glibc.close(connection) }
        return serve(connection, handle)
    }

    /// Serves one accepted connection.
    private func serve<Request: ControlRequest>(_ connection: Int32, _ handle: (Request) -> ControlResponse) -> ControlOutcome {
        let peer: PeerCredentials
        do {
            try UnixSocketAddress.setTimeouts(connection, seconds: 2)
            peer = try PeerCredentials.of(descriptor: connection)
        } catch {
            return .failed(error)
        }
        // A peer whose groups cannot be read is treated as having none.
        guard access.allows(peer, supplementaryGroups: { (try? PeerCredentials.supplementaryGroups(of: connection)) ?? [] }) else {
            reply(connection, .failure(access.refusal(of: peer)))
            return .refused(peer, access)
        }
        let line: Data
        do {
            guard
                let read = try LineSocket.readLine(
                    connection, maximumLength: LineSocket.maximumRequestLength, deadline: .now + LineSocket.requestDeadline)
            else { return .malformed(peer, "empty request") }
            line = read
        } catch {
            let detail = switch error {
            case .tooLong: "a request longer than \(LineSocket.maximumRequestLength) bytes"
            case .tooSlow: "the request was not complete within \(LineSocket.requestDeadline)"
            case .system(let error): error.description
            }
            reply(connection, .failure("could not read the request: \(detail)"))
            return .malformed(peer, detail)
        }
        let envelope: ControlEnvelope
        do {
            envelope = try ControlJSON.decode(ControlEnvelope.self, from: line)
        } catch {
            let detail = "not a control request; send one JSON object such as {\"command\":\"status\"} and a newline"
            reply(connection, .failure(detail))
            return .malformed(peer, detail)
        }
        let request: Request
        do {
            request = try Request(envelope)
        } catch {
            let response = ControlResponse.failure(error.description)
            reply(connection, response)
            return .served(peer, command: envelope.command, response)
        }
        guard !request.needsOwner || peer.uid == access.ownerUID else {
            let response = ControlResponse.failure(
                "\(request.command) writes a file as the agent's user (uid \(access.ownerUID)), so only that user may ask for it; "
                    + "run it as that user (sudo -u \(Accounts.userName(access.ownerUID) ?? "#\(access.ownerUID)") relayctl …)")
            reply(connection, response)
            return .served(peer, command: request.command, response)
        }
        let response = handle(request)
        reply(connection, response)
        return .served(peer, command: request.command, response)
    }

    /// Sends a response; a client that hung up early has nothing left to tell.
    private func reply(_ connection: Int32, _ response: ControlResponse) {
        guard let data = try? ControlJSON.encode(response) else { return }
        try? LineSocket.writeLine(connection, data)
    }

    /// Stops listening and removes the socket file, so the next relayctl says "not running"
    /// instead of "connection refused". Safe to call more than once.
    public func close() {
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard wasOpen else { return }
        unlink(path)
        Glibc.close(descriptor)
    }
}

/// What one connection to a control socket came to, for the agent's log.
public enum ControlOutcome: Sendable, CustomStringConvertible {
    /// A request was answered.
    case served(PeerCredentials, command: String, ControlResponse)
    /// A peer that is neither the owner nor in the group was refused.
    case refused(PeerCredentials, ControlAccess)
    /// The request could not be read or decoded; the peer got an error response.
    case malformed(PeerCredentials, String)
    /// A system call failed while accepting or reading.
    case failed(SystemError)

    /// One log line.
    public var description: String {
        switch self {
        case .served(let peer, let command, let response):
            "control: \(command) from pid \(peer.pid): " + (response.ok ? "ok" : "failed: \(response.error ?? "")")
        case .refused(let peer, let access):
            "control: refused pid \(peer.pid) of uid \(peer.uid): only the agent's own user"
                + (access.group.map { " and the members of group \($0.name)" } ?? "") + " may connect"
        case .malformed(let peer, let detail):
            "control: malformed request from pid \(peer.pid): \(detail)"
        case .failed(let error):
            "control: \(error)"
        }
    }
}
