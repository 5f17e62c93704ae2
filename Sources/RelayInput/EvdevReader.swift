import CRelayShim
import Glibc
public import RelaySystem

/// Reads key events from evdev devices (`/dev/input/eventN`) or any descriptors carrying
/// `struct input_event` records (a pipe in tests, injected input in loopback mode).
///
/// Not `Sendable`: it keeps per-descriptor decoding state; one task owns it.
public final class EvdevReader {
    private struct Source {
        var descriptor: Int32
        /// How it is named in messages: its path, or its name and path.
        var name: String
        var decoder: InputEventDecoder
        var open = true
        /// How it was found, and so is found again when it comes back; `nil` for a descriptor
        /// the caller gave.
        let locator: InputDeviceLocator?
    }

    /// A key device that went away (unplugged, its driver unloaded), came back, or is not there yet.
    public enum DeviceChange: Sendable, Hashable, CustomStringConvertible {
        /// The device `path` names is gone; `cause` is the read's error, `nil` for an end of file.
        case lost(path: String, cause: SystemError?)
        /// The device `path` names is back, grabbed again.
        case back(path: String)
        /// No device has the name `name` yet (its driver has not loaded).
        case notYetThere(name: String)

        /// `the key device … went away (…); …`, `the key device … is back`, `no input device is named …`.
        public var description: String {
            switch self {
            case .lost(let path, let cause):
                "the key device \(path) went away" + (cause.map { " (\($0))" } ?? "")
                    + "; its keys do nothing until it comes back, which is watched for each second"
            case .back(let path): "the key device \(path) is back"
            case .notYetThere(let name):
                "no input device is named \"\(name)\" yet (cat /proc/bus/input/devices lists the names): its keys do nothing "
                    + "until its driver loads (its overlay: Hardware/README.md), which is watched for each second"
            }
        }
    }

    private var sources: [Source]
    private var interpreter: KeyEventInterpreter
    private let ownsDescriptors: Bool
    /// Where devices named by their name are looked for.
    private let inputDevices: InputDevices

    /// Opens devices by path (read-only, close-on-exec) and grabs each (`EVIOCGRAB`), so that
    /// the keys that drive the wearable do not also type on its console; one that cannot be
    /// opened or grabbed is an error that names the fix (the driver, the path, group `input`,
    /// or the program that holds it). A device named twice (two links to one node, as
    /// /dev/input/by-path and by-id give) is opened once: a second grab would find it taken.
    public convenience init(paths: [String], keyMap: KeyMap = .standard, layout: InputEventLayout = .native) throws(DeviceError) {
        try self.init(devices: paths.map(InputDeviceLocator.path), keyMap: keyMap, layout: layout)
    }

    /// Opens and grabs devices by path or by name (found in `devices`' sysfs), as
    /// ``init(paths:keyMap:layout:)`` does. A named device that is not there yet (its driver
    /// loads later) is not an error: it is listed in ``changes`` and looked for with the lost
    /// ones by ``reopenLost()``. Names are looked up in `system`.
    public init(
        devices locators: [InputDeviceLocator], keyMap: KeyMap = .standard, layout: InputEventLayout = .native,
        lookingIn system: InputDevices = InputDevices()
    ) throws(DeviceError) {
        var sources: [Source] = []
        var seen = Set<String>()
        var missing: [String] = []
        var unique: [InputDeviceLocator] = []
        for locator in locators where !unique.contains(locator) { unique.append(locator) }
        for locator in unique {
            guard let path = system.path(of: locator) else {
                if case .name(let name) = locator { missing.append(name) }
                sources.append(Source(descriptor: -1, name: locator.description, decoder: InputEventDecoder(layout: layout), open: false, locator: locator))
                continue
            }
            guard seen.insert(Self.resolved(path)).inserted else { continue }
            do {
                let descriptor = try Self.openDevice(path)
                sources.append(Source(descriptor: descriptor, name: locator.describing(at: path), decoder: InputEventDecoder(layout: layout), locator: locator))
            } catch {
                sources.filter(\.open).forEach { _ = close($0.descriptor) }
                throw DeviceError(
                    role: "the key device", path: path, group: "input",
                    listing: "ls -l /dev/input/by-path, cat /proc/bus/input/devices", cause: error)
            }
        }
        self.sources = sources
        interpreter = KeyEventInterpreter(keyMap: keyMap)
        ownsDescriptors = true
        inputDevices = system
        changes = missing.map { .notYetThere(name: $0) }
    }

    /// Opens and grabs the device at `path`.
    private static func openDevice(_ path: String) throws(SystemError) -> Int32 {
        let descriptor = try SystemError.retrying("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
        do {
            _ = try SystemError.retrying("ioctl(\(path), EVIOCGRAB)") { relay_evdev_grab(descriptor, 1) }
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// The node `path` leads to after every symbolic link, or `path` itself when that cannot be
    /// found (opening it then says why).
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Reads from descriptors the caller keeps open and closes.
    public convenience init(descriptors: [Int32], keyMap: KeyMap = .standard, layout: InputEventLayout = .native) {
        self.init(descriptors: descriptors, keyMap: keyMap, layout: layout, owning: false, names: descriptors.map { "fd \($0)" })
    }

    private init(descriptors: [Int32], keyMap: KeyMap, layout: InputEventLayout, owning: Bool, names: [String]) {
        sources = zip(descriptors, names).map {
            Source(descriptor: $0, name: $1, decoder: InputEventDecoder(layout: layout), locator: nil)
        }
        interpreter = KeyEventInterpreter(keyMap: keyMap)
        ownsDescriptors = owning
        inputDevices = InputDevices()
    }

    deinit {
        if ownsDescriptors { sources.filter(\.open).forEach { _ = close($0.descriptor) } }
    }

    /// The descriptors of the sources still open, for an event loop that polls them itself (one
    /// at its end would be readable for ever).
    public var descriptors: [Int32] { sources.filter(\.open).map(\.descriptor) }

    /// Whether every source has reached its end (a pipe's writer closed it, a device went away).
    public var isAtEnd: Bool { sources.allSatisfy { !$0.open } }

    /// Whether a device went away (or is not there yet) that ``reopenLost()`` looks for.
    public var isMissingDevices: Bool { sources.contains { !$0.open && $0.locator != nil } }

    /// What went away or came back since the last call, for the log.
    public private(set) var changes: [DeviceChange] = []

    /// Takes ``changes``.
    public func takeChanges() -> [DeviceChange] {
        defer { changes.removeAll() }
        return changes
    }

    /// Tries to open again each device that went away, or that was named and not there yet: by
    /// its path, or by its name wherever its driver put it this time. One that is back is
    /// grabbed and read again (and listed in ``changes``). Cheap when nothing is back: one
    /// failed `open`, or one read of sysfs's names, per missing device.
    public func reopenLost() {
        for index in sources.indices where !sources[index].open {
            guard let locator = sources[index].locator, let path = inputDevices.path(of: locator) else { continue }
            // A node another source already reads (two names for one device) is not taken twice.
            guard let descriptor = try? Self.openDevice(path) else { continue }
            sources[index].descriptor = descriptor
            sources[index].open = true
            sources[index].name = sources[index].locator?.describing(at: path) ?? path
            sources[index].decoder = InputEventDecoder(layout: sources[index].decoder.layout)
            changes.append(.back(path: sources[index].name))
        }
    }

    /// An evdev device's name (`gpio-keys`), or `nil` when the descriptor is not an input device.
    public static func deviceName(of descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBytes { raw in
            relay_ioctl_pointer(descriptor, relay_eviocgname(raw.count), raw.baseAddress)
        }
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The key codes an evdev device can report (`EVIOCGBIT(EV_KEY)`), or `nil` when the
    /// descriptor is not an input device.
    public static func keyCodes(of descriptor: Int32) -> Set<UInt16>? {
        // KEY_MAX is 0x2ff: 768 bits.
        var bits = [UInt8](repeating: 0, count: 96)
        let length = bits.withUnsafeMutableBytes { raw in
            relay_ioctl_pointer(descriptor, relay_eviocgbit_key(raw.count), raw.baseAddress)
        }
        guard length >= 0 else { return nil }
        var codes = Set<UInt16>()
        for (index, byte) in bits.prefix(Int(length)).enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { codes.insert(UInt16(index * 8 + bit)) }
        }
        return codes
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever, 0: not at all) for input, then returns
    /// the key events of everything readable. Returns an empty array on timeout or at the end.
    public func read(timeoutMilliseconds: Int32) throws(SystemError) -> [KeyEvent] {
        var keys: [KeyEvent] = []
        var timeout = timeoutMilliseconds
        while !isAtEnd {
            let ready = try poll(timeout: timeout)
            guard !ready.isEmpty else { break }
            for index in ready { keys += try readOnce(index) }
            // Drain whatever else is already there without waiting again.
            timeout = 0
        }
        return keys
    }

    /// The indices of open sources with data (or an end) to read.
    private func poll(timeout: Int32) throws(SystemError) -> [Int] {
        let open = sources.indices.filter { sources[$0].open }
        var descriptors = open.map { pollfd(fd: sources[$0].descriptor, events: Int16(POLLIN), revents: 0) }
        let count = try SystemError.retrying("poll") { Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout) }
        guard count > 0 else { return [] }
        return zip(open, descriptors).compactMap { index, descriptor in descriptor.revents != 0 ? index : nil }
    }

    /// One read from a ready source: at most one buffer, so a busy source cannot starve others.
    private func readOnce(_ index: Int) throws(SystemError) -> [KeyEvent] {
        var buffer = [UInt8](repeating: 0, count: 64 * sources[index].decoder.layout.recordSize)
        let descriptor = sources[index].descriptor
        let name = sources[index].name
        // Array's closure methods rethrow untyped errors, so the typed error travels in a Result.
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in
                try SystemError.retrying("read(\(name))") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
            }
        }
        let count: Int
        switch result {
        case .success(let read) where read > 0:
            count = read
        case .success:
            end(index, cause: nil)
            return []
        case .failure(let error) where [ENODEV, EIO].contains(error.code):
            // A device that went away (unplugged, driver unloaded): ENODEV from evdev.
            end(index, cause: error)
            return []
        case .failure(let error) where error.code == EBADF:
            // The number is no longer ours: closing it could close what another thread opened.
            end(index, cause: error, closing: false)
            return []
        case .failure(let error):
            throw error
        }
        let events = buffer.withUnsafeBytes { sources[index].decoder.decode(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        return interpreter.interpret(events)
    }

    /// Marks a source as ended and, when it is ours, closes it (unless `closing` is false) and
    /// says so in ``changes``. A key held on it counts as released.
    private func end(_ index: Int, cause: SystemError?, closing: Bool = true) {
        sources[index].open = false
        interpreter.reset()
        guard ownsDescriptors else { return }
        if closing { close(sources[index].descriptor) }
        changes.append(.lost(path: sources[index].name, cause: cause))
    }
}
