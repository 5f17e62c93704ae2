public import RelayDBus

/// Why Bluetooth cannot be used, in words for people: what is missing, and what to do.
public enum BluetoothProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system bus cannot be reached.
    case noSystemBus(String)
    /// The kernel has no Bluetooth sockets (and so bluetoothd cannot run).
    case noKernelSupport
    /// Nobody owns `org.bluez` on the system bus.
    case noBluetoothd
    /// bluetoothd reports no adapter (or not the one asked for).
    case noAdapter(String?)
    /// The adapter's radio is off.
    case adapterOff(String)
    /// The adapter does not accept new bonds.
    case adapterNotPairable(String)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .noSystemBus(let reason):
            "Bluetooth is not available: the system bus cannot be reached (\(reason)); "
                + "start dbus, or use --transport loopback"
        case .noKernelSupport:
            "Bluetooth is not available: the kernel has no Bluetooth sockets (AF_BLUETOOTH), and bluetoothd "
                + "(org.bluez) is not on the system bus; load the kernel's Bluetooth support, or use --transport loopback"
        case .noBluetoothd:
            "Bluetooth is not available: bluetoothd (org.bluez) is not on the system bus; start it "
                + "(systemctl start bluetooth), or use --transport loopback"
        case .noAdapter(let name?):
            "Bluetooth is not available: bluetoothd has no adapter \(name); check `bluetoothctl list` and the "
                + "adapter setting, or use --transport loopback"
        case .noAdapter(nil):
            "Bluetooth is not available: bluetoothd reports no adapter; plug one in or unblock it "
                + "(rfkill unblock bluetooth), or use --transport loopback"
        case .adapterOff(let name):
            "the Bluetooth adapter \(name) is off; turn it on (bluetoothctl power on)"
        case .adapterNotPairable(let name):
            "the Bluetooth adapter \(name) does not accept new pairings; allow it (bluetoothctl pairable on)"
        }
    }

    /// Finds the adapter to use, or the reason there is none: bluetoothd on the bus, then an
    /// adapter (`name`, or the first). The kernel is asked only when bluetoothd is missing, to
    /// say which of the two is the cause.
    public static func adapter(
        named name: String?, client: BlueZClient, kernelSupportsBluetooth: () -> Bool = RFCOMMAddress.kernelSupportsBluetooth
    ) async throws(BluetoothProblem) -> (BlueZAdapter, BlueZObjects) {
        let objects: BlueZObjects
        do {
            guard try await client.isRunning() else {
                throw kernelSupportsBluetooth() ? BluetoothProblem.noBluetoothd : .noKernelSupport
            }
            objects = try await client.objects()
        } catch let problem as BluetoothProblem {
            throw problem
        } catch let error as DBusError where error.name == .serviceUnknown || error.name == .nameHasNoOwner {
            throw kernelSupportsBluetooth() ? .noBluetoothd : .noKernelSupport
        } catch {
            throw .noSystemBus("\(error)")
        }
        guard let adapter = objects.adapter(named: name) else { throw .noAdapter(name.flatMap { $0.isEmpty ? nil : $0 }) }
        return (adapter, objects)
    }

    /// Whether the problem can go away by itself while an agent runs: bluetoothd starting late
    /// (a board whose services start in parallel), an adapter plugged in or unblocked.
    public var isTransient: Bool {
        switch self {
        case .noBluetoothd, .noAdapter: true
        case .noSystemBus, .noKernelSupport, .adapterOff, .adapterNotPairable: false
        }
    }

    /// Finds the adapter as ``adapter(named:client:kernelSupportsBluetooth:)`` does, but while
    /// the problem ``isTransient`` it tries again every `interval`, telling `waiting` each
    /// problem once, when it starts. Throws the problems that are not transient, and
    /// `CancellationError` when the task is cancelled.
    public static func waitForAdapter(
        named name: String?, client: BlueZClient, every interval: Duration = .seconds(1),
        kernelSupportsBluetooth: () -> Bool = RFCOMMAddress.kernelSupportsBluetooth,
        waiting: (BluetoothProblem) -> Void
    ) async throws -> (BlueZAdapter, BlueZObjects) {
        var reported: BluetoothProblem?
        while true {
            let problem: BluetoothProblem
            do {
                return try await adapter(named: name, client: client, kernelSupportsBluetooth: kernelSupportsBluetooth)
            } catch {
                problem = error
            }
            guard problem.isTransient else { throw problem }
            if problem != reported { waiting(problem) }
            reported = problem
            try await Task.sleep(for: interval)
        }
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
    public static func connectSystemBus(_ bus: DBusConnection.Bus = .system) async throws(BluetoothProblem) -> DBusConnection {
        do {
            return try await DBusConnection.connect(to: bus)
        } catch {
            throw .noSystemBus("\(error)")
        }
    }
}
