import Foundation
import RelayInput
import RelaySystem
import Testing

/// Finding key devices by name and by what they report, from a sysfs tree laid out as the
/// kernel lays out /sys/class/input (the real one is read in `make systemd`'s VM).
@Suite struct InputDevicesTests {
    /// `eventN/device/name` and `eventN/device/capabilities/key` for each device, in a fresh folder.
    private func sysfs(_ devices: [(event: String, name: String, keys: String)]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-sysfs-\(UUID().uuidString)").path
        for device in devices {
            let folder = "\(root)/\(device.event)/device"
            try FileManager.default.createDirectory(atPath: folder + "/capabilities", withIntermediateDirectories: true)
            try (device.name + "\n").write(toFile: folder + "/name", atomically: true, encoding: .utf8)
            try (device.keys + "\n").write(toFile: folder + "/capabilities/key", atomically: true, encoding: .utf8)
        }
        // Not an event device: sysfs lists inputN and mouseN beside them.
        try FileManager.default.createDirectory(atPath: root + "/input3", withIntermediateDirectories: true)
        return root
    }

    /// A board: its power button, a USB keyboard, the HAT's gpio-keys, HDMI-CEC's remote keys.
    private func board() throws -> InputDevices {
        let root = try sysfs([
            // KEY_POWER (116): bit 52 of the second word.
            ("event0", "pwr_button", "10000000000000 0"),
            // A keyboard: KEY_ESC (1), KEY_ENTER (28), KEY_A (30) … and the arrows.
            ("event1", "USB Keyboard", "108000000000 7fffffff"),
            // KEY_UP (103), KEY_DOWN (108), KEY_ENTER (28), KEY_ESC (1), KEY_PROG1 (148).
            ("event10", "relay-keys", "100000 108000000000 10000002"),
        ])
        return InputDevices(sysfs: root, nodes: "/dev/input")
    }

    @Test func devicesAreListedInTheKernelsOrderWithTheirNamesAndKeys() throws {
        let devices = try board().all()
        #expect(devices.map(\.path) == ["/dev/input/event0", "/dev/input/event1", "/dev/input/event10"])
        #expect(devices.map(\.name) == ["pwr_button", "USB Keyboard", "relay-keys"])
        #expect(devices[0].keyCodes == [116])
        #expect(devices[2].keyCodes == [1, 28, 103, 108, 148])
        #expect(devices[1].isKeyboard && !devices[2].isKeyboard)
    }

    @Test func aDeviceIsFoundByItsNameAndKeypadsByTheirKeys() throws {
        let system = try board()
        #expect(system.named("relay-keys")?.path == "/dev/input/event10")
        #expect(system.named("gpio-keys") == nil)
        // The power button reports no key of the map; the keyboard is left to the console.
        #expect(system.keypads(for: .standard).map(\.name) == ["relay-keys"])
        // A map that gives Select to KEY_POWER takes the button too.
        #expect(system.keypads(for: KeyMap(up: [103], down: [108], select: [116], back: [1])).map(\.name) == ["pwr_button", "relay-keys"])
    }

    @Test func aBitmapThatDoesNotParseGivesNoKeys() throws {
        let root = try sysfs([("event0", "odd", "zz 10"), ("event1", "empty", "")])
        #expect(InputDevices(sysfs: root).all().map(\.keyCodes) == [[], []])
        #expect(InputDevices(sysfs: root + "/none").all().isEmpty)
    }

    /// A named device whose driver has not loaded is not an error: the reader says so and
    /// looks for it with the lost ones; one that is there but cannot be grabbed is an error
    /// naming the fix.
    @Test func aNamedDeviceNotYetThereIsWaitedForAndOneThatCannotBeOpenedIsAnError() throws {
        let root = try sysfs([("event4", "relay-keys", "108000000000 10000002")])
        let nodes = FileManager.default.temporaryDirectory.appendingPathComponent("relay-nodes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: nodes, withIntermediateDirectories: true)
        let reader = try EvdevReader(devices: [.name("gpio-keys")], lookingIn: InputDevices(sysfs: root, nodes: nodes))
        #expect(reader.descriptors.isEmpty)
        let waiting = reader.takeChanges()
        #expect(waiting == [.notYetThere(name: "gpio-keys")])
        #expect(waiting.first?.description.hasPrefix("no input device is named \"gpio-keys\" yet (cat /proc/bus/input/devices lists the names)") == true)
        reader.reopenLost()
        #expect(reader.takeChanges().isEmpty)
        // relay-keys is in sysfs, but its node is a plain file that cannot be grabbed.
        try Data().write(to: URL(fileURLWithPath: nodes + "/event4"))
        let error = #expect(throws: DeviceError.self) {
            try EvdevReader(devices: [.name("relay-keys")], lookingIn: InputDevices(sysfs: root, nodes: nodes))
        }
        #expect(error?.path == nodes + "/event4")
    }
}
