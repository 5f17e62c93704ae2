import RelaySystem
#if canImport(Glibc)
import Glibc
#endif

/// Why the RSSI of the connected link could not be read through HCI, in words for people:
/// what happened, and what to do.
public enum LinkQualityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kernel has no Bluetooth sockets (`AF_BLUETOOTH`), so there is no HCI socket to open.
    case noBluetoothSockets
    /// The adapter's name is not the kernel's `hciN`, so it names no HCI device.
    case invalidAdapterName(String)
    /// The kernel has no HCI device of that name.
    case noSuchAdapter(String)
    /// The adapter is down, so its controller takes no commands.
    case adapterDown(String)
    /// No ACL link to the device is up on the adapter.
    case notConnected(adapter: String, device: BluetoothAddress)
    /// The kernel refused the HCI socket or the Read RSSI command.
    case permissionDenied(adapter: String)
    /// The controller did not answer Read RSSI in time.
    case noAnswer(adapter: String)
    /// The controller answered Read RSSI with an error status.
    case refusedByController(adapter: String, device: BluetoothAddress)
    /// Any other failure, with the `errno` value the shim returned.
    case failed(adapter: String, code: Int32)

    /// Maps an `errno` value from `relay_hci_read_rssi` to what it means for this adapter and device.
    public init(code: Int32, adapter: String, device: BluetoothAddress) {
        switch code {
        // socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI) without the kernel's Bluetooth support.
        case EAFNOSUPPORT, EPROTONOSUPPORT: self = .noBluetoothSockets
        // bind() to an HCI device index the kernel does not have.
        case ENODEV: self = .noSuchAdapter(adapter)
        case ENETDOWN: self = .adapterDown(adapter)
        // HCIGETCONNINFO finds no ACL connection to the address.
        case ENOENT, ENOTCONN: self = .notConnected(adapter: adapter, device: device)
        case EPERM, EACCES: self = .permissionDenied(adapter: adapter)
        case ETIMEDOUT: self = .noAnswer(adapter: adapter)
        // libbluetooth's hci_read_rssi sets EIO when the command completes with a non-zero status.
        case EIO: self = .refusedByController(adapter: adapter, device: device)
        default: self = .failed(adapter: adapter, code: code)
        }
    }

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .noBluetoothSockets:
            "the kernel has no Bluetooth sockets (AF_BLUETOOTH), so the link's RSSI cannot be read through HCI; "
                + "load the kernel's Bluetooth support (modprobe bluetooth) to see it"
        case .invalidAdapterName(let name):
            "the adapter \"\(name)\" is not named like a kernel HCI device (hci0, hci1, …), so its link's RSSI "
                + "cannot be read through HCI; set bluetooth.adapter to the name bluetoothctl list shows"
        case .noSuchAdapter(let name):
            "the kernel has no Bluetooth adapter \(name), so the link's RSSI cannot be read through HCI; "
                + "check that it is plugged in and not blocked (rfkill list)"
        case .adapterDown(let name):
            "the Bluetooth adapter \(name) is down, so the link's RSSI cannot be read; turn it on (bluetoothctl power on)"
        case .notConnected(let adapter, let device):
            "no Bluetooth link to \(device) is up on \(adapter), so there is no link RSSI to read; "
                + "it is read while the wearable is connected"
        case .permissionDenied(let adapter):
            "the kernel refused to read the link's RSSI on \(adapter) through its HCI socket (permission denied); "
                + "Read RSSI needs no privilege on a standard kernel, so a security policy or container blocks raw "
                + "HCI sockets: allow them, or run relay-phone with CAP_NET_RAW"
        case .noAnswer(let adapter):
            "the controller of \(adapter) did not answer Read RSSI within 1 s; the next status asks again"
        case .refusedByController(let adapter, let device):
            "the controller of \(adapter) refused to read the RSSI of the link to \(device) (an HCI error status); "
                + "the link may be closing, the next status asks again"
        case .failed(let adapter, let code):
            "the link's RSSI could not be read through \(adapter)'s HCI socket: \(SystemError.describe(code))"
        }
    }
}
