public import CBluetooth
#if canImport(Glibc)
import Glibc
#endif

/// `struct sockaddr_rc` for an RFCOMM socket (the raw-socket fallback, when BlueZ's profile
/// connection is not used).
public enum RFCOMMAddress {
    /// The socket address of `channel` on `address`. The kernel wants `bdaddr_t` in little-endian
    /// order (the written form's last pair first), which `str2ba` also produces.
    public static func make(_ address: BluetoothAddress, channel: UInt8) -> sockaddr_rc {
        var socketAddress = sockaddr_rc()
        socketAddress.rc_family = sa_family_t(AF_BLUETOOTH)
        socketAddress.rc_channel = channel
        let reversed = Array(address.bytes.reversed())
        socketAddress.rc_bdaddr.b = (reversed[0], reversed[1], reversed[2], reversed[3], reversed[4], reversed[5])
        return socketAddress
    }

    /// The address in a `bdaddr_t`, for checking what the kernel or libbluetooth produced.
    public static func address(of bdaddr: bdaddr_t) -> BluetoothAddress? {
        let b = bdaddr.b
        return BluetoothAddress(bytes: [b.5, b.4, b.3, b.2, b.1, b.0])
    }

    /// Whether the kernel offers Bluetooth sockets: `false` when `socket(AF_BLUETOOTH)` fails with
    /// `EAFNOSUPPORT` (no Bluetooth support compiled in or loaded).
    public static func kernelSupportsBluetooth() -> Bool {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_RFCOMM)
        let code = errno
        if descriptor >= 0 {
            close(descriptor)
            return true
        }
        return code != EAFNOSUPPORT && code != EPROTONOSUPPORT
    }
}
