import CBluetooth
import Glibc
import RelayBluetooth
import Testing

/// The connected link's RSSI through HCI: adapter names, the errno mapping and its messages, the
/// choice between HCI and BlueZ's property, and a real attempt on this machine's kernel.
@Suite struct LinkQualityTests {
    static let device = BluetoothAddress("AA:BB:CC:DD:EE:01")!

    /// Whether the kernel offers raw HCI sockets; on machines without it the reading must say so.
    static func kernelHasHCISockets() -> Bool {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        let code = errno
        if descriptor >= 0 { close(descriptor) }
        return descriptor >= 0 || (code != EAFNOSUPPORT && code != EPROTONOSUPPORT)
    }

    @Test func adapterNamesGiveTheKernelsDeviceIndex() {
        #expect(LinkQuality.deviceIndex(ofAdapter: "hci0") == 0)
        #expect(LinkQuality.deviceIndex(ofAdapter: "hci12") == 12)
        #expect(LinkQuality.deviceIndex(ofAdapter: "hci65534") == 65534)
        for bad in ["", "hci", "hci-1", "hci+1", "hciX", "usb0", "HCI0", "hci65535", "hci4294967296", "hci٣", "hci0 "] {
            #expect(LinkQuality.deviceIndex(ofAdapter: bad) == nil, "\(bad) was accepted")
        }
    }

    @Test func errnoValuesMapToWhatHappened() {
        let device = Self.device
        let cases: [(Int32, LinkQualityError)] = [
            (EAFNOSUPPORT, .noBluetoothSockets), (EPROTONOSUPPORT, .noBluetoothSockets),
            (ENODEV, .noSuchAdapter("hci3")), (ENETDOWN, .adapterDown("hci3")),
            (ENOENT, .notConnected(adapter: "hci3", device: device)), (ENOTCONN, .notConnected(adapter: "hci3", device: device)),
            (EPERM, .permissionDenied(adapter: "hci3")), (EACCES, .permissionDenied(adapter: "hci3")),
            (ETIMEDOUT, .noAnswer(adapter: "hci3")), (EIO, .refusedByController(adapter: "hci3", device: device)),
            (EMFILE, .failed(adapter: "hci3", code: EMFILE)),
        ]
        for (code, expected) in cases {
            #expect(LinkQualityError(code: code, adapter: "hci3", device: device) == expected, "errno \(code)")
        }
        // Each message says what happened and what to do.
        #expect(LinkQualityError.noBluetoothSockets.description.contains("no Bluetooth sockets (AF_BLUETOOTH)"))
        #expect(LinkQualityError.noBluetoothSockets.description.contains("modprobe bluetooth"))
        #expect(LinkQualityError.noSuchAdapter("hci3").description.contains("no Bluetooth adapter hci3"))
        #expect(LinkQualityError.adapterDown("hci3").description.contains("bluetoothctl power on"))
        #expect(LinkQualityError.notConnected(adapter: "hci3", device: device).description
            .contains("no Bluetooth link to AA:BB:CC:DD:EE:01 is up on hci3"))
        #expect(LinkQualityError.permissionDenied(adapter: "hci3").description.contains("CAP_NET_RAW"))
        #expect(LinkQualityError.failed(adapter: "hci3", code: EMFILE).description.contains("(errno \(EMFILE))"))
    }

    @Test func readingOnThisKernelSaysWhyItCannot() {
        // No radio here: with AF_BLUETOOTH, adapter 65000 does not exist; without it, the socket fails first.
        let expected: LinkQualityError = Self.kernelHasHCISockets() ? .noSuchAdapter("hci65000") : .noBluetoothSockets
        #expect(throws: expected) { try LinkQuality.readRSSI(adapter: "hci65000", device: Self.device) }
        // A name that is no kernel device is refused before any socket is opened.
        #expect(throws: LinkQualityError.invalidAdapterName("usb0")) { try LinkQuality.readRSSI(adapter: "usb0", device: Self.device) }
    }

    @Test func statusPrefersHCIThenBlueZAndSaysWhy() {
        let measured = LinkQualityReport(hci: .success(-42), bluezRSSI: -79)
        #expect(measured.rssi == -42 && measured.source == .hci && measured.hciUnavailable == nil)

        let fallback = LinkQualityReport(hci: .failure(.noBluetoothSockets), bluezRSSI: -79)
        #expect(fallback.rssi == -79 && fallback.source == .bluez)
        #expect(fallback.hciUnavailable == LinkQualityError.noBluetoothSockets.description)

        let nothing = LinkQualityReport(hci: .failure(.noAnswer(adapter: "hci0")), bluezRSSI: nil)
        #expect(nothing.rssi == nil && nothing.source == .none && nothing.hciUnavailable?.contains("did not answer") == true)

        // Not connected: HCI is not asked at all (an unusable adapter name would otherwise be reported).
        let apart = LinkQualityReport.read(adapter: "not-an-adapter", device: Self.device, connected: false, bluezRSSI: -80)
        #expect(apart.rssi == -80 && apart.source == .bluez)
        #expect(apart.hciUnavailable?.contains("not connected") == true)

        let connected = LinkQualityReport.read(adapter: "not-an-adapter", device: Self.device, connected: true, bluezRSSI: nil)
        #expect(connected.source == .none && connected.hciUnavailable == LinkQualityError.invalidAdapterName("not-an-adapter").description)
    }
}
