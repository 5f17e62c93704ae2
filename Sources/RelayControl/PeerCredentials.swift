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

    /// The peer's supplementary groups as the kernel recorded them at `connect`, read with
    /// `getsockopt(SO_PEERGROUPS)` (Linux 4.13), so a process's groups are checked, not the
    /// group database's idea of its user.
    public static func supplementaryGroups(of descriptor: Int32) throws(SystemError) -> [UInt32] {
        // SO_PEERGROUPS is 59 on every Linux architecture (asm-generic/socket.h); Swift's Glibc
        // module does not carry the macro.
        let peerGroups: Int32 = 59
        var groups = [gid_t](repeating: 0, count: 32)
        while true {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            let result = groups.withUnsafeMutableBytes { getsockopt(descriptor, SOL_SOCKET, peerGroups, $0.baseAddress, &length) }
            if result == 0 { return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size)) }
            let code = errno
            if code == EINTR { continue }
            // ERANGE: more groups than room; `length` says how many bytes they need.
            guard code == ERANGE, Int(length) > groups.count * MemoryLayout<gid_t>.size else {
                throw SystemError(call: "getsockopt(SO_PEERGROUPS)", code: code)
            }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size)
        }
    }
}
