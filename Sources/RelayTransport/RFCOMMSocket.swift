import RelaySystem
import CBluetooth
import NIOPosix
#if canImport(Glibc)
    import Glibc
#endif

/// Raw RFCOMM client sockets through libbluetooth, the fallback when BlueZ's
/// `Device1.ConnectProfile` is not used.
enum RFCOMMSocket {
    /// Opens and connects an RFCOMM socket; the blocking connect runs off the event loops.
    static func connect(address: String, channel: UInt8) async throws(TransportError) -> CInt {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_RFCOMM)
        let socketErrno = errno
        guard descriptor >= 0 else {
            if socketErrno == EAFNOSUPPORT {
                throw .bluetoothUnavailable("the kernel has no Bluetooth sockets (AF_BLUETOOTH)")
            }
            throw .system(SystemError(call: "socket(AF_BLUETOOTH)", code: socketErrno))
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
            throw .connectFailed(.rfcomm(address: address, channel: channel), SystemError.describe(result))
        }
        return descriptor
    }
}
