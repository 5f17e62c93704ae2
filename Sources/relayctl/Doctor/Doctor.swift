import Foundation
import Glibc
import RelayConfig
import RelayHaptics
import RelayControl
import RelayInput
import RelayStore
import RelaySystem

/// The checks of `relayctl doctor`, in the order a person fixes things: the kernel and daemons
/// first, then devices, then Relay's own files and services.
struct Doctor {
    let environment: [String: String]

    /// Runs the checks for `roles`.
    func run(_ roles: Set<DoctorRole>) async -> [DoctorFinding] {
        let phone = roles.contains(.phone) ? configuration(PhoneConfiguration.self) : nil
        let wearable = roles.contains(.wearable) ? configuration(WearableConfiguration.self, serviceDirectory: "/etc/relay") : nil
        var findings = await bluetooth(adapter: wearable?.settings?.bluetoothAdapter ?? phone?.settings?.bluetoothAdapter)
        if phone != nil { findings += await session() }
        if let wearable, let settings = wearable.settings {
            findings.append(framebuffer(settings.framebuffer, panel: settings.panel, configuration: wearable.location))
            let keyMap = KeyMap(up: settings.keys.up, down: settings.keys.down, select: settings.keys.select, back: settings.keys.back)
            findings += keys(
                settings.inputs.map(InputDeviceLocator.path) + settings.inputNames.map(InputDeviceLocator.name),
                findsKeypads: settings.transport == .rfcomm, keyMap: keyMap, configuration: wearable.location)
            findings.append(vibrator(settings.vibrator.map { VibratorDevice(path: $0, line: settings.vibratorLine) }, configuration: wearable.location))
        } else if wearable != nil {
            findings.append(.skipped("framebuffer", "panel", "the wearable's configuration has errors (below); correct it first"))
            findings.append(.skipped("keys", "input devices", "the wearable's configuration has errors (below); correct it first"))
        }
        if wearable?.settings == nil, wearable != nil {
            findings.append(.skipped("vibrator", "motor", "the wearable's configuration has errors (below); correct it first"))
        }
        findings.append(clock())
        findings += [phone?.finding, wearable?.finding].compactMap { $0 }
        if phone != nil {
            findings += await service(PhoneRequest.status, unit: "relay-phone.service", user: true)
            findings.append(stateDirectory(StateDirectory.resolve(role: "phone", environment: environment).path, role: "phone"))
        }
        if wearable != nil {
            findings += await service(WearableRequest.status, unit: "relay-wearable.service", user: false)
            let service = "/var/lib/relay"
            let path = FileManager.default.fileExists(atPath: service) ? service : StateDirectory.resolve(role: "wearable", environment: environment).path
            findings.append(stateDirectory(path, role: "wearable"))
        }
        return findings
    }

    // MARK: Configuration

    /// A role's file: where it is, whether it parses, and its settings when it does.
    struct Configured<Settings> {
        var location: String
        var settings: Settings?
        var finding: DoctorFinding
    }

    /// Reads a role's configuration where the agent would: `serviceDirectory` (the system
    /// service's `ConfigurationDirectory=`) when it holds the file, else the user's.
    func configuration<Settings: AgentConfiguration>(_ type: Settings.Type, serviceDirectory: String? = nil) -> Configured<Settings> {
        let role = Settings.schema.role
        var environment = environment
        if let serviceDirectory, FileManager.default.fileExists(atPath: "\(serviceDirectory)/\(role).toml") {
            environment["CONFIGURATION_DIRECTORY"] = serviceDirectory
        }
        let location = ConfigurationLocation.find(
            role: role, explicitPath: nil, environment: environment, currentDirectory: FileManager.default.currentDirectoryPath)
        let check = "\(role).toml"
        do {
            let file = try location.load()
            let settings = try Settings(file: file, flags: ConfigurationFlags(), currentDirectory: "/")
            let detail = file == nil ? "no file at \(location.path): every default applies" : "\(location.path) is valid"
            return Configured(location: location.path, settings: settings, finding: .ok("configuration", check, detail))
        } catch {
            return Configured(
                location: location.path, settings: nil,
                finding: .problem(
                    "configuration", check, error.description,
                    fix: "correct \(location.path) (Docs/CONFIGURATION.md; relay-\(role) --print-default-config shows every key)"))
        }
    }

    // MARK: State

    /// The state directory: private to its owner (the agents refuse it otherwise).
    func stateDirectory(_ path: String, role: String) -> DoctorFinding {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return .ok("state", "relay-\(role) state directory", "\(path) does not exist yet; relay-\(role) creates it (0700) on its first start")
        }
        let mode = status.st_mode & 0o777
        guard status.st_mode & S_IFMT == S_IFDIR else {
            return .problem("state", "relay-\(role) state directory", "\(path) is not a directory", fix: "move it away: mv \(path) \(path).old")
        }
        guard mode & 0o077 == 0 else {
            return .problem(
                "state", "relay-\(role) state directory", "\(path) has mode \(String(mode, radix: 8)): others may read its keys",
                fix: "chmod 700 \(path)")
        }
        return .ok("state", "relay-\(role) state directory", "\(path) is private (mode \(String(mode, radix: 8)))")
    }

    // MARK: Clock

    /// Whether the kernel's clock is synchronised (NTP's `STA_UNSYNC` cleared): a board without a
    /// real-time clock starts in the past until it is.
    func clock() -> DoctorFinding {
        let now = Date().formatted(.iso8601)
        switch ClockSynchronisation.current {
        case .synchronised(let error):
            return .ok("clock", "synchronised", "synchronised (estimated error \(error) µs); the time is \(now)")
        case .unsynchronised:
            return .problem(
                "clock", "synchronised", "the clock is not synchronised (the time here is \(now))",
                fix: "enable NTP: sudo timedatectl set-ntp true (systemd-timesyncd); a board without a real-time clock keeps the wrong time until then (relay-wearable follows its phone's clock meanwhile: relayctl status shows clockOffset)")
        case .unknown(let error):
            return .skipped("clock", "synchronised", "the kernel's clock state cannot be read here (\(error)); the time is \(now)")
        }
    }
}
