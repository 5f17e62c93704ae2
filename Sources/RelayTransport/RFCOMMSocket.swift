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

    /// Opens and connects an RFCOMM socket, bound to the local adapter `localAddress` when one
    /// is given; the blocking connect runs off the event loops, for at most ``connectTimeout``
    /// seconds.
    static func connect(address: String, channel: UInt8, from localAddress: String? = nil) async throws(TransportError) -> CInt {
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
        // An authenticated, encrypted link before the first byte: Relay bonds only by numeric
        // comparison, so the partner's link key is a MITM-protected one, and a link without it
        // is not the partner's (the wearable's profile asks the same of its side).
        var security = bt_security(level: UInt8(BT_SECURITY_HIGH), key_size: 0)
        guard setsockopt(descriptor, SOL_BLUETOOTH, BT_SECURITY, &security, socklen_t(MemoryLayout<bt_security>.size)) == 0 else {
            let code = errno
            close(descriptor)
            throw .system(SystemError(call: "setsockopt(BT_SECURITY)", code: code))
        }
        if let localAddress {
            var local = sockaddr_rc()
            local.rc_family = sa_family_t(AF_BLUETOOTH)
            guard str2ba(localAddress, &local.rc_bdaddr) == 0 else {
                close(descriptor)
                throw .invalidEndpoint(localAddress, "not a Bluetooth address")
            }
            let status = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_rc>.size)) }
            }
            guard status == 0 else {
                let code = errno
                close(descriptor)
                throw .system(SystemError(call: "bind(AF_BLUETOOTH, \(localAddress))", code: code))
            }
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
            if result == EBUSY { throw .channelBusy(.rfcomm(address: address, channel: channel)) }
            throw .connectFailed(.rfcomm(address: address, channel: channel), failure(result, channel: channel))
        }
        return descriptor
    }

    /// Why a connect failed with `code`, for people: what the kernel's answer means for a
    /// phone connecting to its wearable, and what to do.
    static func failure(_ code: Int32, channel: UInt8) -> String {
        switch code {
        // The send timeout ends a blocking Bluetooth connect with EINPROGRESS (or EAGAIN).
        case EINPROGRESS, EAGAIN, ETIMEDOUT:
            "no answer within \(connectTimeout) s; is the wearable on and in range?"
        case EHOSTDOWN, EHOSTUNREACH:
            "the wearable does not answer (\(SystemError.describe(code))); is it on, in range, with Bluetooth on?"
        case ECONNREFUSED:
            "nothing listens on RFCOMM channel \(channel) there (connection refused); is relay-wearable running with "
                + "--transport rfcomm, on that channel (bluetooth.channel)?"
        case EACCES, EPERM:
            "the wearable refused this phone's Bluetooth keys (\(SystemError.describe(code))); if its bond with this "
                + "phone was removed there, unpair on both sides (relayctl unpair on each) and pair again (relayctl pair)"
        default:
            SystemError.describe(code)
        }
    }
}
