import Glibc
import RelayDisplay
import RelayInput
import RelaySystem

extension Doctor {
    /// The panel: a framebuffer device Relay can open and drive.
    func framebuffer(_ path: String?, configuration: String) -> DoctorFinding {
        let check = "panel"
        guard let path else {
            return .problem(
                "framebuffer", check, "no framebuffer is configured: relay-wearable draws into a file, not on a panel",
                fix: "set framebuffer = \"/dev/fb1\" (your panel's; ls /sys/class/graphics) in \(configuration)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            return .problem(
                "framebuffer", check, "\(path) does not exist",
                fix: "enable the panel's driver (its overlay, Hardware/README.md) and check ls /dev/fb*; or correct framebuffer in \(configuration)")
        }
        guard status.st_mode & S_IFMT == S_IFCHR else {
            return .problem(
                "framebuffer", check, "\(path) is a file, not a device: the wearable draws into it, not on a panel",
                fix: "set framebuffer to the panel's device (/dev/fbN) in \(configuration)")
        }
        do {
            let device = try Framebuffer.openDevice(path: path)
            return .ok("framebuffer", check, "\(path): \(device.geometry) (driver \(device.driverName))")
        } catch {
            if case .system(let failure) = error, failure.code == EACCES {
                return .problem(
                    "framebuffer", check, "\(path) may not be opened by this user (permission denied)",
                    fix: "the packaged service has the video group; for your own user: sudo usermod -aG video $USER")
            }
            return .problem("framebuffer", check, "\(path): \(error)", fix: "use a panel driver that offers RGB565 or XRGB8888 (Hardware/README.md)")
        }
    }

    /// The keys: each configured evdev device opens and reports keys Relay maps.
    func keys(_ inputs: [String], configuration: String) -> [DoctorFinding] {
        guard !inputs.isEmpty else {
            return [
                .problem(
                    "keys", "input devices", "no key device is configured: nothing can be pressed on the wearable",
                    fix: "set inputs = [\"/dev/input/by-path/…-event\"] (ls -l /dev/input/by-path) in \(configuration)")
            ]
        }
        let names: [UInt16: String] = [103: "Up", 108: "Down", 28: "Enter", 96: "KP Enter", 353: "Select", 1: "Esc", 14: "Backspace", 158: "Back"]
        return inputs.map { path in
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                let code = errno
                return code == EACCES
                    ? .problem(
                        "keys", path, "may not be opened by this user (permission denied)",
                        fix: "the packaged service has the input group; for your own user: sudo usermod -aG input $USER")
                    : .problem("keys", path, SystemError(call: "open", code: code).description, fix: "check the device (ls -l /dev/input/by-path) and inputs in \(configuration)")
            }
            defer { close(descriptor) }
            guard let codes = EvdevReader.keyCodes(of: descriptor) else {
                return .problem("keys", path, "not an input device", fix: "name an evdev device (/dev/input/eventN) in inputs in \(configuration)")
            }
            let mapped = KeyMap.standard.codes.keys.filter(codes.contains).sorted()
            let device = EvdevReader.deviceName(of: descriptor) ?? "unnamed"
            guard !mapped.isEmpty else {
                return .problem(
                    "keys", path, "\(device) reports none of the keys Relay reads (Up, Down, Enter or Select, Esc or Back)",
                    fix: "map the buttons to those codes (the gpio-keys overlay's linux,code, Hardware/README.md)")
            }
            let missing = Set(KeyMap.standard.codes.values).subtracting(mapped.compactMap { KeyMap.standard[$0] })
            let present = mapped.map { names[$0] ?? "\($0)" }.joined(separator: ", ")
            guard missing.isEmpty else {
                return .problem(
                    "keys", path, "\(device) has \(present) but nothing for \(missing.map(\.rawValue).sorted().joined(separator: ", "))",
                    fix: "map a button to each of Up, Down, Select and Back (Hardware/README.md), or add the device that has them to inputs")
            }
            return .ok("keys", path, "\(device): \(present)")
        }
    }
}
