import Glibc

/// An input device as sysfs describes it, without opening it: what the kernel's driver calls it
/// and which key codes it can report.
public struct InputDeviceInfo: Hashable, Sendable {
    /// Its node, `/dev/input/eventN`.
    public var path: String
    /// Its driver's name for it (`gpio-keys`, `relay-keys`; `N: Name=` in /proc/bus/input/devices).
    public var name: String
    /// The key codes it can report (`EV_KEY` capabilities).
    public var keyCodes: Set<UInt16>

    /// Creates a description.
    public init(path: String, name: String, keyCodes: Set<UInt16>) {
        self.path = path
        self.name = name
        self.keyCodes = keyCodes
    }

    /// Whether it reports letters (`KEY_A`): a keyboard, which the wearable does not take
    /// unless named, since grabbing it would take it from the console.
    public var isKeyboard: Bool { keyCodes.contains(30) }
}

/// The event devices the kernel has, read from sysfs (`/sys/class/input/eventN/device`), which
/// anyone may read: a device's name and keys are known before, and without, permission to open it.
public struct InputDevices: Sendable {
    /// Where sysfs lists input devices.
    public let sysfs: String
    /// Where their nodes are.
    public let nodes: String

    /// The system's (a test gives a tree of its own).
    public init(sysfs: String = "/sys/class/input", nodes: String = "/dev/input") {
        self.sysfs = sysfs
        self.nodes = nodes
    }

    /// Every event device, in the kernel's order (event0, event1, …).
    public func all() -> [InputDeviceInfo] {
        guard let directory = opendir(sysfs) else { return [] }
        defer { closedir(directory) }
        var numbered: [(Int, String)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)) else { continue }
            numbered.append((number, name))
        }
        return numbered.sorted { $0.0 < $1.0 }.compactMap { _, event in
            guard let name = Self.firstLine(of: "\(sysfs)/\(event)/device/name") else { return nil }
            let keys = Self.firstLine(of: "\(sysfs)/\(event)/device/capabilities/key").map(Self.keyCodes(bitmap:)) ?? []
            return InputDeviceInfo(path: "\(nodes)/\(event)", name: name, keyCodes: keys)
        }
    }

    /// The device whose driver calls it `name`, if one is there now.
    public func named(_ name: String) -> InputDeviceInfo? {
        all().first { $0.name == name }
    }

    /// The node `locator` stands for now: its path, or the node of the device so named; `nil`
    /// when no device has that name (yet).
    public func path(of locator: InputDeviceLocator) -> String? {
        switch locator {
        case .path(let path): path
        case .name(let name): named(name)?.path
        }
    }

    /// The devices that report keys of `keyMap` and are not keyboards: what a board's buttons
    /// (gpio-keys, an ADC keypad, a remote) look like.
    public func keypads(for keyMap: KeyMap) -> [InputDeviceInfo] {
        all().filter { device in !device.isKeyboard && device.keyCodes.contains { keyMap[$0] != nil } }
    }

    /// The codes in a sysfs capability bitmap: `unsigned long` words in hex, the highest first
    /// (leading zero words left out), separated by spaces. What does not parse is no key.
    static func keyCodes(bitmap: String) -> Set<UInt16> {
        var codes = Set<UInt16>()
        for (index, word) in bitmap.split(separator: " ").reversed().enumerated() {
            guard let bits = UInt64(word, radix: 16) else { return [] }
            for bit in 0..<64 where bits & (1 << UInt64(bit)) != 0 {
                let code = index * UInt.bitWidth + bit
                guard code <= 0x2ff else { continue }  // KEY_MAX
                codes.insert(UInt16(code))
            }
        }
        return codes
    }

    /// A sysfs attribute's first line, or `nil` when it cannot be read.
    private static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}

/// How a key device is found: by its node, or by its driver's name for it, wherever the
/// kernel puts it (`eventN` changes when a driver loads in another order).
public enum InputDeviceLocator: Hashable, Sendable, CustomStringConvertible {
    /// A node, or a link to one (`/dev/input/by-path/…`).
    case path(String)
    /// A name as `N: Name=` in /proc/bus/input/devices gives it.
    case name(String)

    /// The path, or `the device named "NAME"`.
    public var description: String {
        switch self {
        case .path(let path): path
        case .name(let name): "the device named \"\(name)\""
        }
    }

    /// How messages name it when found at `path`.
    func describing(at path: String) -> String {
        switch self {
        case .path: path
        case .name(let name): "\"\(name)\" (\(path))"
        }
    }
}
