import RelaySystem
import NIOCore
import NIOPosix
#if canImport(Glibc)
    import Glibc
#endif

/// Opens connections between the agents.
public enum Transport {
    /// Connects to a listening agent. An RFCOMM connection leaves from the adapter with the
    /// address `adapterAddress` when one is given (else the kernel picks one, which on a board
    /// with several adapters need not be the one bonded with the peer).
    public static func connect(
        to endpoint: TransportEndpoint, fromAdapter adapterAddress: String? = nil
    ) async throws(TransportError) -> FramedConnection {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connectTimeout(.seconds(10))
        do {
            switch endpoint {
            case .unix(let path):
                return FramedConnection(
                    channel: try await bootstrap.connect(unixDomainSocketPath: path, channelInitializer: wrap),
                    peer: endpoint.description)
            case .tcp(let host, let port):
                guard TransportEndpoint.isLoopback(host) else { throw TransportError.notLoopback(host) }
                return FramedConnection(
                    channel: try await bootstrap.connect(host: host, port: port, channelInitializer: wrap),
                    peer: endpoint.description)
            case .rfcomm(let address, let channel):
                let descriptor = try await RFCOMMSocket.connect(address: address, channel: channel, from: adapterAddress)
                return try await adopt(descriptor: descriptor, peer: endpoint.description)
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw .connectFailed(endpoint, Self.explain(error, endpoint: endpoint))
        }
    }

    /// Wraps a connected stream socket the process already owns (a `socketpair` end, or
    /// the descriptor BlueZ passes to `Profile1.NewConnection`). The connection owns it from now on.
    public static func adopt(
        descriptor: CInt, peer: String
    ) async throws(TransportError) -> FramedConnection {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).withConnectedSocket(descriptor, channelInitializer: wrap)
            return FramedConnection(channel: channel, peer: peer)
        } catch {
            throw .connectFailed(.unix(path: peer), "cannot adopt descriptor \(descriptor): \(error)")
        }
    }

    /// Listens for agents; `accept` runs for each connection, one at a time, until the
    /// listener's task is cancelled. A Unix socket is created with mode 0600.
    public static func listen(
        on endpoint: TransportEndpoint,
        ready: @Sendable (TransportEndpoint) async -> Void = { _ in },
        accept: @Sendable (FramedConnection) async -> Void
    ) async throws(TransportError) {
        let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        let pending = AcceptedConnections()
        defer { pending.stop() }
        let wrap: @Sendable (any Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> = { channel in
            Self.wrap(channel).map { connection in
                pending.accepted(connection)
                return connection
            }
        }
        var bound = endpoint
        do {
            switch endpoint {
            case .unix(let path):
                server = try await bindPrivately(path) { hidden in
                    try await bootstrap.bind(unixDomainSocketPath: hidden, childChannelInitializer: wrap)
                }
            case .tcp(let host, let port):
                guard TransportEndpoint.isLoopback(host) else { throw TransportError.notLoopback(host) }
                server = try await bootstrap.bind(host: host, port: port, childChannelInitializer: wrap)
                if let actual = server.channel.localAddress?.port { bound = .tcp(host: host, port: actual) }
            case .rfcomm:
                throw TransportError.listenFailed(
                    endpoint, "the wearable receives RFCOMM connections through BlueZ's profile, not a listening socket")
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw .listenFailed(endpoint, explain(error, endpoint: endpoint))
        }
        await ready(bound)
        do {
            try await server.executeThenClose { inbound in
                for try await child in inbound {
                    pending.taken(child)
                    let peer = child.channel.remoteAddress.map { "\($0)" } ?? bound.description
                    await accept(FramedConnection(channel: child, peer: peer))
                }
            }
        } catch {
            throw .listenFailed(bound, "\(error)")
        }
    }

    /// Binds a Unix socket that is never reachable at a wider mode than 0600: `bind` creates it
    /// inside a fresh 0700 folder beside `path`, where nobody else can reach it, it is narrowed
    /// to 0600 there and renamed into place (replacing a stale socket). The umask would do
    /// without the folder, but it is process-wide, and NIO binds on another thread, after any
    /// other listener of the process may have set it back.
    private static func bindPrivately(
        _ path: String, _ bind: (String) async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    ) async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never> {
        let parent = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var template = Array(((parent.isEmpty ? "/" : parent) + "/.relay-bind-XXXXXX").utf8CString)
        let folder = try template.withUnsafeMutableBufferPointer { buffer throws(SystemError) in
            _ = try SystemError.retrying("mkdtemp(\(parent))") { mkdtemp(buffer.baseAddress!) == nil ? -1 : 0 }
            return String(cString: buffer.baseAddress!)
        }
        defer { rmdir(folder) }
        let hidden = folder + "/s"
        let server = try await bind(hidden)
        do {
            try SystemError.retrying("chmod(\(hidden), 0600)") { chmod(hidden, 0o600) }
            try SystemError.retrying("rename(\(hidden), \(path))") { rename(hidden, path) }
        } catch {
            try? await server.channel.close()
            unlink(hidden)
            throw error
        }
        return server
    }

    @Sendable private static func wrap(_ channel: any Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> {
        channel.eventLoop.makeCompletedFuture {
            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
    }

    private static func explain(_ error: any Error, endpoint: TransportEndpoint) -> String {
        if let io = error as? IOError {
            switch io.errnoCode {
            case ENOENT: return "no socket at that path; is the other agent running with --transport loopback?"
            case ECONNREFUSED: return "connection refused; is the other agent running and listening there?"
            case EACCES: return "permission denied; the socket belongs to another user"
            case EADDRINUSE: return "the address is in use; is another agent already running?"
            default: return SystemError.describe(io.errnoCode)
            }
        }
        return "\(error)"
    }
}
