import Glibc

/// Tells systemd about the service's state (`sd_notify(3)`'s protocol, without libsystemd): one
/// datagram of `KEY=VALUE` lines to the socket `$NOTIFY_SOCKET` names, so a `Type=notify` unit
/// counts as started only once the agent serves (`READY=1`) and shows it stopping (`STOPPING=1`).
public enum ServiceNotification {
    /// Sends `state` (such as `READY=1`) when the service manager asked for it; does nothing
    /// when `$NOTIFY_SOCKET` is unset (not under systemd, or not `Type=notify`). A failure to
    /// send is returned for the log, never thrown: the agent works the same without it.
    @discardableResult
    public static func send(_ state: String, environment: [String: String]) -> SystemError? {
        guard let target = environment["NOTIFY_SOCKET"], !target.isEmpty else { return nil }
        // An abstract socket is written with a leading @ and addressed with a leading NUL.
        var path = Array(target.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        guard path.first == 0 || path.first == UInt8(ascii: "/") else {
            return SystemError(call: "NOTIFY_SOCKET=\(target): not an absolute or abstract socket", code: EINVAL)
        }
        var address = sockaddr_un()
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return SystemError(call: "NOTIFY_SOCKET=\(target): longer than a socket address", code: ENAMETOOLONG)
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return SystemError(call: "socket(AF_UNIX, SOCK_DGRAM)", code: errno) }
        defer { close(descriptor) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
        return sent < 0 ? SystemError(call: "sendto(\(target))", code: errno) : nil
    }
}
