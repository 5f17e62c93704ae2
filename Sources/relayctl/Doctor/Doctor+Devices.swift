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
            if case .cannotOpen(let failure) = error, failure.cause.code == EACCES {
                // The service's account has the device's group; the person asking may not.
                return .skipped(
                    "framebuffer", check,
                    "\(path) is a device this user may not open; the packaged service (group video) can. To check it here: sudo relayctl doctor")
            }
            return .problem("framebuffer", check, "\(path): \(error)", fix: "use a panel driver that offers RGB565 or XRGB8888 (Hardware/README.md)")
        }
    }

    /// The keys: each configured evdev device opens and reports keys, and together they give
    /// Up, Down, Select and Back (a board may spread them over several gpio-keys devices).
    func keys(_ inputs: [String], configuration: String) -> [DoctorFinding] {
        guard !inputs.isEmpty else {
            return [
                .problem(
                    "keys", "input devices", "no key device is configured: nothing can be pressed on the wearable",
                    fix: "set inputs = [\"/dev/input/by-path/…-event\"] (ls -l /dev/input/by-path) in \(configuration)")
            ]
        }
        var findings: [DoctorFinding] = []
        var found = Set<InputKey>()
        var unreadable = false
        for path in inputs {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else {
                let code = errno
                unreadable = true
                findings.append(
                    code == EACCES
                        ? .skipped("keys", path, "a device this user may not open; the packaged service (group input) can. To check it here: sudo relayctl doctor")
                        : .problem("keys", path, SystemError(call: "open", code: code).description, fix: "check the device (ls -l /dev/input/by-path) and inputs in \(configuration)"))
                continue
            }
            defer { close(descriptor) }
            guard let codes = EvdevReader.keyCodes(of: descriptor) else {
                findings.append(.problem("keys", path, "not an input device", fix: "name an evdev device (/dev/input/eventN) in inputs in \(configuration)"))
                continue
            }
            let keys = Set(codes.compactMap { KeyMap.standard[$0] })
            found.formUnion(keys)
            let device = EvdevReader.deviceName(of: descriptor) ?? "unnamed"
            findings.append(
                keys.isEmpty
                    ? .problem(
                        "keys", path, "\(device) reports none of the keys Relay reads (Up, Down, Enter or Select, Esc or Back)",
                        fix: "map the buttons to those codes (the gpio-keys overlay's linux,code, Hardware/README.md)")
                    : .ok("keys", path, "\(device): \(keys.map(\.rawValue).sorted().joined(separator: ", "))"))
        }
        let missing = Set(InputKey.allCases).subtracting(found)
        if !unreadable, !found.isEmpty {
            findings.append(
                missing.isEmpty
                    ? .ok("keys", "all four keys", "up, down, select and back are on the configured devices")
                    : .problem(
                        "keys", "all four keys", "nothing gives \(missing.map(\.rawValue).sorted().joined(separator: ", "))",
                        fix: "map a button to each of Up, Down, Select and Back (Hardware/README.md), or add the device that has them to inputs"))
        }
        return findings
    }
}
