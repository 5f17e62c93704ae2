public import RelayDBus
import Synchronization

/// Watches the phone's lock sources on D-Bus and emits each source's new reading.
///
/// logind on the system connection (the active session of a seat: its `LockedHint`, or that
/// there is no screen that locks), and `org.freedesktop.ScreenSaver` and `org.gnome.ScreenSaver`
/// on the session connection. An absent service is reported as `nil` with one log line, and
/// picked up when it appears. Each source reports only when its reading changes, starting with
/// its first reading.
public final class LockWatcher: Sendable {
    /// The screensavers watched on the session bus: bus name (also the interface) and object path.
    public static let screenSavers: [(name: String, path: String)] = [
        ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"),
        ("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"),
    ]

    /// The readings, in the order each source saw them; finishes after ``stop()``.
    public let readings: AsyncStream<LockReading>
    /// How many sources are watched: each reports a first reading (`nil` when absent) soon after the start.
    public let sourceCount: Int
    private let continuation: AsyncStream<LockReading>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Starts watching. Either connection may be `nil` when that bus is not available.
    ///
    /// - Parameter seat: The logind seat whose active session counts; phones have `seat0`.
    public init(
        system: DBusConnection?, session: DBusConnection?, seat: String = "seat0",
        log: @escaping @Sendable (String) -> Void
    ) {
        (readings, continuation) = AsyncStream.makeStream(of: LockReading.self)
        sourceCount = (system == nil ? 0 : 1) + (session == nil ? 0 : Self.screenSavers.count)
        var started: [Task<Void, Never>] = []
        if let system {
            let watch = LogindWatch(connection: system, seat: seat, log: log)
            started.append(start { session in .logind(session) } run: { await watch.run(report: $0) })
        }
        if let session {
            for saver in Self.screenSavers {
                let watch = ScreenSaverWatch(name: saver.name, path: saver.path, connection: session, log: log)
                started.append(start { active in .screenSaver(name: saver.name, active: active) } run: { await watch.run(report: $0) })
            }
        }
        tasks.withLock { $0 = started }
    }

    /// Stops every watch and finishes ``readings``.
    public func stop() {
        tasks.withLock { tasks in
            tasks.forEach { $0.cancel() }
            tasks.removeAll()
        }
        continuation.finish()
    }

    /// Runs one watch in a task, passing on only readings that differ from the last one.
    private func start<Value: Sendable & Equatable>(
        _ reading: @escaping @Sendable (Value?) -> LockReading,
        run: @escaping @Sendable (@Sendable (Value?) -> Void) async -> Void
    ) -> Task<Void, Never> {
        let continuation = continuation
        return Task {
            let last = Mutex<Value??>(.none)
            await run { value in
                let changed = last.withLock { last in
                    defer { last = .some(value) }
                    return last != .some(value)
                }
                if changed { continuation.yield(reading(value)) }
            }
        }
    }
}
