import PhoneAgent
import RelayCLI
import RelayControl
import RelayDBus
import RelayLockWatch
import RelaySystem
import Synchronization

/// The phone's lock state, shared by the D-Bus watchers (tasks) and the control socket (its own
/// thread) through one lock. Each effective change is logged while the lock is held, so the log
/// shows changes in the order they happened; the mirror policy will take them from here.
final class PhoneLock: Sendable {
    private let state: Mutex<LockState>
    private let log: AgentLogSink
    /// Finishes once every watched source has given its first reading.
    private let (firstReadings, heardAll) = AsyncStream<Void>.makeStream()
    /// Told the effective state after each change, under the lock (so that two changes are
    /// told in their order): it must only hand the news on, never wait.
    let changed = LockedCallback<Bool>()

    /// A lock state with the manual override the last run left (`nil`: automatic), counting as
    /// `withoutSource` says while no source knows anything.
    init(override: Bool?, withoutSource: LockState.WithoutSource, log: AgentLogSink) {
        self.log = log
        state = Mutex(LockState(withoutSource: withoutSource))
        if override != nil { apply(.manual(override: override)) }
    }

    /// Applies one source's reading, logging `lock state: locked (logind)` when the effective state changes.
    func apply(_ update: LockSourceUpdate) {
        state.withLock { state in
            guard let change = state.apply(update) else { return }
            log("relay-phone: lock state: \(change)")
            changed.current?(state.locked)
        }
    }

    /// Feeds the watcher's readings into the state until the watcher stops.
    func follow(_ watcher: LockWatcher) -> Task<Void, Never> {
        Task { [heardAll] in
            var heard = Set<String>()
            if watcher.sourceCount == 0 { heardAll.finish() }
            for await reading in watcher.readings {
                switch reading {
                case .logind(let session):
                    apply(.logind(session.map(Self.seat)))
                    heard.insert(LockSource.logind.description)
                case .screenSaver(let name, let active):
                    apply(.screenSaver(name, active: active))
                    heard.insert(name)
                }
                if heard.count >= watcher.sourceCount { heardAll.finish() }
            }
            heardAll.finish()
        }
    }

    /// Waits until every source followed has given its first reading, at most `limit`; false if
    /// one had not by then. Notifications that arrive before the state is known would be judged
    /// on a guess: a locked phone counted as unlocked does not mirror them.
    func waitForFirstReadings(within limit: Duration) async -> Bool {
        let firstReadings = firstReadings
        let timer = Task { [heardAll] in
            try? await Task.sleep(for: limit)
            heardAll.yield()
        }
        defer { timer.cancel() }
        return await firstReadings.first { _ in true } == nil
    }

    /// The watcher's reading of logind's seat as the lock state takes it.
    private static func seat(_ session: SeatSession) -> LogindSeat {
        switch session {
        case .lockable(let locked): .session(locked: locked)
        case .noScreen: .noScreen
        }
    }

    /// Whether the phone counts as locked now.
    var isLocked: Bool { state.withLock { $0.locked } }

    /// `locked` (1 or 0), `lockSource` (`logind`, `manual`, a screensaver's bus name, `headless`,
    /// or `none`) and `lock`, the two in words with what they mean for mirroring, as `status` and
    /// the lock commands answer.
    var values: [String: ControlValue] {
        state.withLock { state in
            [
                "locked": .int(state.locked ? 1 : 0), "lockSource": .string(state.source?.description ?? "none"),
                "lock": .string(Self.summary(state)),
            ]
        }
    }

    /// The state in words, with what it means for mirroring: `no screen (headless) — mirroring`,
    /// `unlocked (logind) — mirror.when_unlocked decides …`.
    var summary: String { state.withLock { Self.summary($0) } }

    private static func summary(_ state: LockState) -> String {
        let source: String =
            switch state.source {
            case .headless: "no screen (headless)"
            case nil: "no source"
            case let source?: source.description
            }
        let effect = state.locked ? "mirroring" : "mirror.when_unlocked decides what reaches the wearable"
        return state.source == .headless ? "\(source) — \(effect)" : "\(state.locked ? "locked" : "unlocked") (\(source)) — \(effect)"
    }

    /// Connects to the system bus for logind, or says in one line why relay-phone runs without it.
    static func connectSystemBus(_ bus: DBusConnection.Bus, named name: String, log: AgentLogSink) async -> DBusConnection? {
        do {
            return try await DBusConnection.connect(to: bus)
        } catch {
            log.warning("relay-phone: no system bus (\(name): \(error)); lock state comes from the screensavers and relayctl only")
            return nil
        }
    }
}
