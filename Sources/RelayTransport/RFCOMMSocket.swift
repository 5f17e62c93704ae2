import RelaySystem
import CBluetooth
import NIOPosix
#if canImport(Glibc)
    import Glibc
#endif

/// Raw RFCOMM client sockets through libbluetooth, the fallback when BlueZ's
/// `Device1.ConnectProfile` is not used.
enum RFCOMMSocket {
    /// How long a connect may wait. The kernel's own wait has no end (a blocking Bluetooth
    /// connect waits for its socket's state to change, and a connect to a device that has just
    /// gone away can wait for ever), so the socket's send timeout bounds it: a page, SDP and the
    /// RFCOMM setup take seconds on a real radio.
    static let connectTimeout = 30

    /// Opens and connects an RFCOMM socket; the blocking connect runs off the event loops, for
    /// at most ``connectTimeout`` seconds.
    static func connect(address: String, channel: UInt8) async throws(TransportError) -> CInt {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_RFCOMM)
        let socketErrno = errno
        guard descriptor >= 0 else {
            if socketErrno == EAFNOSUPPORT {
                throw .bluetoothUnavailable("the kernel has no Bluetooth sockets (AF_BLUETOOTH)")
            }
            throw .system(SystemError(call: "socket(AF_BLUETOOTH)", code: socketErrno))
        }
        var limit = timeval(tv_sec: connectTimeout, tv_usec: 0)
        guard setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            let code = errno
            close(descriptor)
            throw .system(SystemError(call: "setsockopt(SO_SNDTIMEO)", code: code))
        }
        var target = sockaddr_rc()
        target.rc_family = sa_family_t(AF_BLUETOOTH)
        target.rc_channel = channel
        guard str2ba(address, &target.rc_bdaddr) == 0 else {
            close(descriptor)
            throw .invalidEndpoint(address, "not a Bluetooth address")
        }
        let request = target
        let result: Int32
        do {
            result = try await NIOThreadPool.singleton.runIfActive {
                var address = request
                while true {
                    let status = withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_rc>.size))
                        }
                    }
                    let code = errno
                    if status == 0 { return 0 }
                    if code != EINTR { return code }
                }
            }
        } catch {
            close(descriptor)
            throw .connectFailed(.rfcomm(address: address, channel: channel), "the connection was cancelled")
        }
        guard result == 0 else {
            close(descriptor)
            // The send timeout ends a blocking Bluetooth connect with EINPROGRESS (or EAGAIN).
            let reason = [EINPROGRESS, EAGAIN].contains(result)
                ? "no answer within \(connectTimeout) s; is the wearable on and in range?" : SystemError.describe(result)
            throw .connectFailed(.rfcomm(address: address, channel: channel), reason)
        }
        return descriptor
    }
}
