import Glibc
import RelayDisplay
import RelayHaptics
import RelayInput
import RelaySystem

extension Doctor {
    /// The panel: a framebuffer device Relay can open and drive, named by its path or by its
    /// driver's name (`panel`).
    func framebuffer(_ configured: String?, panel: String?, configuration: String) -> DoctorFinding {
        let check = "panel"
        let path: String
        if let configured {
            path = configured
        } else if let panel {
            do {
                path = try FramebufferDevices().path(ofDriver: panel)
            } catch {
                return .problem("framebuffer", check, "\(error)", fix: "load the panel's overlay (Hardware/README.md), or correct panel in \(configuration)")
            }
        } else {
            return .problem(
                "framebuffer", check, "no panel is configured: relay-wearable draws into a file in loopback mode, and refuses to start with Bluetooth",
                fix: "set panel = \"DRIVER\" (cat /sys/class/graphics/fb*/name) or framebuffer = \"/dev/fbN\" in \(configuration)")
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

    /// The keys: each evdev device relay-wearable would read (named by path or name, or with
    /// none named on a Bluetooth wearable, the keypads it finds) opens and reports keys, and
    /// together they give Up, Down, Select and Back (a board may spread them over several
    /// gpio-keys devices).
    func keys(_ named: [InputDeviceLocator], findsKeypads: Bool, keyMap: KeyMap, configuration: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        var inputs: [String] = []
        if named.isEmpty, findsKeypads {
            inputs = InputDevices().keypads(for: keyMap).map(\.path)
            if inputs.isEmpty {
                return [
                    .problem(
                        "keys", "input devices", "no input device reports the keys of [keys]: nothing can be pressed on the wearable",
                        fix: "load the buttons' overlay (Hardware/README.md), or name the device in inputs or input_names in \(configuration)")
                ]
            }
        }
        for locator in named {
            if let path = InputDevices().path(of: locator) {
                inputs.append(path)
            } else if case .name(let name) = locator {
                findings.append(
                    .problem(
                        "keys", name, "no input device is named \"\(name)\" (relay-wearable waits for it)",
                        fix: "load its driver (the overlay, Hardware/README.md), or correct input_names in \(configuration) (cat /proc/bus/input/devices)"))
            }
        }
        guard !inputs.isEmpty || !findings.isEmpty else {
            return [
                .problem(
                    "keys", "input devices", "no key device is configured: nothing can be pressed on the wearable",
                    fix: "set input_names = [\"NAME\"] (cat /proc/bus/input/devices) or inputs = [\"/dev/input/by-path/…-event\"] in \(configuration)")
            ]
        }
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
            let keys = Set(codes.compactMap { keyMap[$0] })
            found.formUnion(keys)
            let device = EvdevReader.deviceName(of: descriptor) ?? "unnamed"
            findings.append(
                keys.isEmpty
                    ? .problem(
                        "keys", path, "\(device) reports none of the codes [keys] maps to Up, Down, Select or Back",
                        fix: "give [keys] in \(configuration) the codes it sends (evtest \(path) shows them), or map its buttons to the default codes (Hardware/README.md)")
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

    /// The vibration motor: none (vibrations are logged), a force-feedback device that can
    /// rumble, a GPIO line that is free, or a value file that may be written.
    func vibrator(_ device: VibratorDevice?, configuration: String) -> DoctorFinding {
        guard let device else {
            return .skipped("vibrator", "motor", "no motor is configured (haptics.vibrator in \(configuration)): vibrations are logged")
        }
        let path = device.path
        let mayNotOpen = DoctorFinding.skipped(
            "vibrator", path, "a device this user may not open for writing; the service may (Hardware/README.md, Vibration). To check it here: sudo relayctl doctor")
        switch device {
        case .valueFile:
            return access(path, W_OK) == 0
                ? .ok("vibrator", path, "a value file that may be written; relayctl vibrate tries the motor")
                : .problem(
                    "vibrator", path, SystemError(call: "access(\(path), W_OK)", code: errno).description,
                    fix: "install Hardware/udev/70-relay.rules and load the motor's overlay (Hardware/README.md, Vibration)")
        case .gpioLine(let chip, let offset):
            // Requesting the line while the agent runs finds it held by "relay-vibrator": that is the agent.
            do {
                _ = try GPIOLineMotor(chip: chip, offset: offset)
                return .ok("vibrator", path, "line \(offset) is free and drives as an output; relayctl vibrate tries the motor")
            } catch .busy(_, _, "relay-vibrator") {
                return .ok("vibrator", path, "line \(offset) is held by relay-wearable; relayctl vibrate tries the motor")
            } catch .chip(_, let cause) where cause.code == EACCES {
                return mayNotOpen
            } catch {
                return .problem("vibrator", path, "\(error)", fix: "wire the motor as Hardware/README.md (Vibration) shows and name its chip and line")
            }
        case .forceFeedback:
            do {
                let motor = try ForceFeedbackMotor(path: path)
                return .ok("vibrator", path, "\(motor) can rumble; relayctl vibrate tries it")
            } catch where error.cause.code == EACCES {
                return mayNotOpen
            } catch {
                return .problem("vibrator", path, "\(error)", fix: "load the motor's overlay and name its device in haptics.vibrator (Hardware/README.md, Vibration)")
            }
        }
    }
}
