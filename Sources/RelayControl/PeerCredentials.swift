import Glibc
public import RelaySystem

/// Who is at the other end of a connected Unix socket, as the kernel recorded it at `connect`.
public struct PeerCredentials: Hashable, Sendable {
    /// The peer's process id.
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Creates credentials.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// Reads a connected Unix socket's peer with `getsockopt(SO_PEERCRED)`.
    public static func of(descriptor: Int32) throws(SystemError) -> PeerCredentials {
        // Glibc declares `struct ucred` only under _GNU_SOURCE, which Swift's Glibc module does not
        // define; this tuple has its layout (pid_t, uid_t, gid_t: three 32-bit fields, unix(7)).
        var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        try SystemError.retrying("getsockopt(SO_PEERCRED)") {
            getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length)
        }
        guard length == socklen_t(MemoryLayout.size(ofValue: credentials)) else {
            throw SystemError(call: "getsockopt(SO_PEERCRED): short answer", code: EINVAL)
        }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}

/// Who may use a control socket: only the user the agent runs as.
///
/// The socket's mode (0600) already keeps others out; checking the peer's uid as well means a
/// mistake in the mode, a bind mount or a shared directory cannot hand the agent to someone else.
/// Root is not let in either: an administrator can become the user, and a root-owned relayctl
/// by accident is more likely than by intent.
public enum ControlAccess {
    /// Whether a peer with `peerUID` may talk to an agent running as `ownerUID`.
    public static func allows(peerUID: UInt32, ownerUID: UInt32) -> Bool {
        peerUID == ownerUID
    }
}
