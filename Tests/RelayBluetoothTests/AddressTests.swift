import CBluetooth
import Glibc
import RelayBluetooth
import Testing

/// Device addresses and `sockaddr_rc`, checked against libbluetooth's own `str2ba`.
@Suite struct AddressTests {
    @Test func parsesAndWritesAddresses() throws {
        let address = try #require(BluetoothAddress("0a:1B:2c:3D:4e:5F"))
        #expect(address.bytes == [0x0A, 0x1B, 0x2C, 0x3D, 0x4E, 0x5F])
        #expect(address.description == "0A:1B:2C:3D:4E:5F")
        #expect(address.objectPathElement == "dev_0A_1B_2C_3D_4E_5F")
        #expect(address.devicePath(onAdapter: "/org/bluez/hci0") == "/org/bluez/hci0/dev_0A_1B_2C_3D_4E_5F")
        for bad in ["", "0A:1B:2C:3D:4E", "0A:1B:2C:3D:4E:5F:60", "0A-1B-2C-3D-4E-5F", "0A:1B:2C:3D:4E:5", "GG:1B:2C:3D:4E:5F", "0A:1B:2C:3D:4E:5F "] {
            #expect(BluetoothAddress(bad) == nil, "\(bad) was accepted")
        }
        #expect(BluetoothAddress(bytes: [1, 2, 3]) == nil)
        #expect(BluetoothAddress(devicePath: "/org/bluez/hci0/dev_0A_1B_2C_3D_4E_5F") == address)
        for bad in ["/org/bluez/hci0", "/org/bluez/hci0/dev_0A_1B_2C_3D_4E", "/org/bluez/hci0/dev_0A:1B:2C:3D:4E:5F", "dev_"] {
            #expect(BluetoothAddress(devicePath: bad) == nil, "\(bad) was accepted")
        }
    }

    @Test func socketAddressMatchesLibbluetooth() throws {
        let address = try #require(BluetoothAddress("01:23:45:67:89:AB"))
        let made = RFCOMMAddress.make(address, channel: 22)
        #expect(made.rc_family == sa_family_t(AF_BLUETOOTH))
        #expect(made.rc_channel == 22)
        // The kernel's byte order: the written form's last pair first.
        let b = made.rc_bdaddr.b
        #expect([b.0, b.1, b.2, b.3, b.4, b.5] == [0xAB, 0x89, 0x67, 0x45, 0x23, 0x01])
        var parsed = bdaddr_t()
        #expect(str2ba("01:23:45:67:89:AB", &parsed) == 0)
        let p = parsed.b
        #expect([p.0, p.1, p.2, p.3, p.4, p.5] == [b.0, b.1, b.2, b.3, b.4, b.5])
        #expect(RFCOMMAddress.address(of: made.rc_bdaddr) == address)
        #expect(MemoryLayout<sockaddr_rc>.size == 10)
    }

    @Test func readsDevicesFromTheObjectManager() throws {
        let objects = BlueZObjects(managedObjects: [
            try .init("/org/bluez/hci0"): [
                BlueZ.adapter: ["Address": .string("00:01:02:03:04:05"), "Powered": .boolean(true), "Pairable": .boolean(false)]
            ],
            try .init("/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"): [
                BlueZ.device: [
                    "Address": .string("AA:BB:CC:DD:EE:01"), "Alias": .string("Watch"), "Paired": .boolean(true),
                    "Adapter": .objectPath(try .init("/org/bluez/hci0")), "RSSI": .int16(-60),
                    "UUIDs": .array(elementSignature: .string, elements: [.string(RelayService.uuid.uppercased())]),
                ]
            ],
        ])
        let adapter = try #require(objects.adapter(named: nil))
        #expect(adapter.name == "hci0" && adapter.powered && !adapter.pairable)
        #expect(objects.adapter(named: "hci1") == nil)
        let address = try #require(BluetoothAddress("aa:bb:cc:dd:ee:01"))
        let device = try #require(objects.device(address, on: adapter))
        #expect(device.name == "Watch" && device.paired && !device.trusted && device.rssi == -60 && device.offersRelay)
        #expect(objects.bondedRelayDevices(on: adapter).map(\.path) == [device.path])
        var updated = device
        updated.update(["Connected": .boolean(true)])
        #expect(updated.connected && updated.paired && updated.name == "Watch" && updated.rssi == -60)
    }
}
