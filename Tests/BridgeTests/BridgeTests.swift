import CBluetooth
import CDBus
import CFreeType
import CRelayShim
import Glibc
import Testing

/// The C bridges link against the real system libraries and behave as their headers say.
@Suite struct BridgeTests {
    @Test func libdbusIsVersionOneAndValidatesSignatures() {
        var major: Int32 = 0
        var minor: Int32 = 0
        var micro: Int32 = 0
        dbus_get_version(&major, &minor, &micro)
        #expect(major == 1)
        #expect(dbus_signature_validate("a{sv}", nil) != 0)
        #expect(dbus_signature_validate("a{s", nil) == 0)
        #expect(RELAY_DBUS_TYPE_STRING == Int(UInt8(ascii: "s")))
        #expect(RELAY_DBUS_TYPE_UNIX_FD == Int(UInt8(ascii: "h")))
        #expect(RELAY_DBUS_TYPE_INVALID == 0)
    }

    @Test func freetypeLoadsDejaVuSans() throws {
        var library: FT_Library?
        #expect(FT_Init_FreeType(&library) == 0)
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try #require(FT_New_Face(library, path, 0, &face) == 0, "cannot open \(path): install fonts-dejavu-core")
        defer { FT_Done_Face(face) }
        let family = try #require(face?.pointee.family_name)
        #expect(String(cString: family) == "DejaVu Sans")
        #expect(FT_Get_Char_Index(face, 0x0416) != 0)  // Cyrillic Zhe
    }

    @Test func bluetoothAddressesRoundTripInLittleEndianOrder() {
        var address = bdaddr_t()
        #expect(str2ba("01:23:45:67:89:AB", &address) == 0)
        #expect(address.b.0 == 0xAB && address.b.5 == 0x01)
        var text = [CChar](repeating: 0, count: 18)
        #expect(ba2str(&address, &text) == 17)
        #expect(String(decoding: text.prefix(17).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "01:23:45:67:89:AB")
        let any = relay_bdaddr_any()
        #expect([any.b.0, any.b.1, any.b.2, any.b.3, any.b.4, any.b.5] == [0, 0, 0, 0, 0, 0])
        #expect(MemoryLayout<sockaddr_rc>.size == 10)
    }

    @Test func shimIoctlReachesTheKernel() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(write(fds[1], "hello", 5) == 5)
        var available: Int32 = 0
        #expect(relay_ioctl_pointer(fds[0], UInt(FIONREAD), &available) == 0)
        #expect(available == 5)
        #expect(relay_ioctl_pointer(-1, UInt(FIONREAD), &available) == -1)
        #expect(errno == EBADF)
        // EVIOCGNAME(256) = _IOC(_IOC_READ, 'E', 0x06, 256).
        #expect(relay_eviocgname(256) == 0x8100_4506)
    }

    @Test func shimRefusesBadHCIArgumentsBeforeOpeningAnything() {
        var rssi: Int8 = 42
        let address = "01:23:45:67:89:AB"
        for bad in ["", "01:23:45:67:89", "01:23:45:67:89:AB:CD", "01-23-45-67-89-AB", "0G:23:45:67:89:AB", "01:23:45:67:89:ABC"] {
            #expect(relay_hci_read_rssi(0, bad, &rssi) == -EINVAL, "\(bad) was accepted")
        }
        for badIndex: Int32 in [-1, Int32(HCI_DEV_NONE), Int32.max, Int32.min] {
            #expect(relay_hci_read_rssi(badIndex, address, &rssi) == -EINVAL, "adapter \(badIndex) was accepted")
        }
        #expect(relay_hci_read_rssi(0, nil, &rssi) == -EINVAL)
        #expect(relay_hci_read_rssi(0, address, nil) == -EINVAL)
        #expect(rssi == 42)
    }

    @Test func shimReportsTheKernelsErrnoForAValidRequest() {
        var rssi: Int8 = 42
        let result = relay_hci_read_rssi(Int32(HCI_DEV_NONE) - 1, "01:23:45:67:89:AB", &rssi)
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        let probeErrno = errno
        if probe >= 0 { close(probe) }
        if probe < 0 && probeErrno == EAFNOSUPPORT {
            // This machine: no AF_BLUETOOTH, so hci_open_dev's socket() fails and the errno comes back negated.
            #expect(result == -EAFNOSUPPORT)
        } else {
            // With Bluetooth sockets, adapter 65534 does not exist.
            #expect(result == -ENODEV)
        }
        #expect(rssi == 42)
    }
}
