import Foundation
public import RelayStore
import RelayWire
import Synchronization

extension WearableLink {
    /// Fires the phone's scheduled requests while the link is down, until the task is cancelled
    /// (Replica+LocalFiring has the rule). Sleeps until the next occurrence; a link going up or
    /// down, or a change of the schedule, wakes it to plan again.
    public func runLocalFiring() async {
        var wakeups = firingWakeups.stream.makeAsyncIterator()
        while !Task.isCancelled {
            let next = fireDueLocally()
            let woken = Mutex(false)
            let clock = configuration.clock
            let wake = firingWakeups.continuation
            var timer: Task<Void, Never>?
            if let next {
                timer = Task {
                    await clock.sleep(until: next)
                    if !Task.isCancelled, !woken.withLock({ $0 }) { wake.yield() }
                }
            }
            let wokenUp = await wakeups.next() != nil
            woken.withLock { $0 = true }
            timer?.cancel()
            // Cancelled (the stream ends then): the timer goes too, not left sleeping on.
            guard wokenUp else { return }
        }
    }

    /// Fires what is due if the link is down, and moves the floor past it while the link is up;
    /// returns when to look again (`nil`: not until woken).
    @discardableResult
    func fireDueLocally() -> Date? {
        let now = configuration.clock.now()
        do {
            let next = try state.withLock { state -> Date? in
                // Unpaired, there is nothing to fire.
                guard state.partnerKey != nil else { return nil }
                if state.current != nil {
                    // Connected, the phone fires. An occurrence falling due is the phone's: the
                    // floor moves past it and is stored, so that a wearable restarted before the
                    // link goes down does not fire it again by itself.
                    guard let next = state.replica.nextLocalFireDate() else { return nil }
                    guard next <= now else { return next }
                    _ = try update(&state, at: now) { replica, _ in ReplicaUpdate(effects: replica.linkChanged(at: now)) }
                    return state.replica.nextLocalFireDate()
                }
                let context = alertContext(now: now, memory: state.alerts)
                let effects = try update(&state, at: now) { replica, _ in ReplicaUpdate(effects: replica.fireDue(context: context)) }
                if !effects.isEmpty {
                    for case .firedHere(let key, let fireDate, let alerted) in effects {
                        logger.info(
                            "fired while apart",
                            metadata: ["schedule": "\(key)", "fireDate": "\(fireDate)", "alerted": "\(alerted)"])
                    }
                }
                return state.replica.nextLocalFireDate()
            }
            try syncUpdates()
            return next
        } catch {
            logger.error("could not store an occurrence fired while apart: \(error); trying again in a minute")
            return now.addingTimeInterval(60)
        }
    }

    /// The link went up or down: occurrences until now are the phone's. Stored, and the firing
    /// loop plans again.
    func linkChanged() {
        let now = configuration.clock.now()
        do {
            try state.withLock { state in
                _ = try update(&state, at: now) { replica, _ in ReplicaUpdate(effects: replica.linkChanged(at: now)) }
            }
            try syncUpdates()
        } catch {
            logger.error("could not store when the link changed: \(error)")
        }
        firingWakeups.continuation.yield()
    }

    /// Whether the wearable is apart from the phone (no session up): it fires the schedule itself.
    public var isStandalone: Bool { state.withLock { $0.current == nil } }

    /// How many of the phone's requests have occurrences the wearable fired by itself that the
    /// phone has not yet matched.
    public var offlineOccurrences: Int {
        (try? database.read(OccurrenceTable.unreconciledCount)) ?? 0
    }

    /// The wearable's record of occurrences, oldest first.
    public func occurrences() throws -> [OccurrenceTable.Row] {
        try database.read(OccurrenceTable.load)
    }

    /// How many of the user's responses wait in the outbox for the phone.
    public var queuedResponses: Int {
        let logs = try? database.read { db in try LinkLogTables.load(db) }
        return logs?.outbound.pending.filter { entry in
            if case .event(let event) = entry.body, case .response = event.kind { return true }
            return false
        }.count ?? 0
    }
}

extension ReplicaEffect {
    /// Whether the effect changes what the wearable would fire by itself.
    var changesSchedule: Bool {
        switch self {
        case .scheduleChanged, .scheduleRemoved, .handled: true
        default: false
        }
    }
}

extension WearableLink {
    /// What the wearable decided about notification `key`, oldest first (`relayctl why`).
    public func decisions(about key: UInt64) throws -> [DecisionHistoryTable.Entry] {
        let now = WireTime.seconds(configuration.clock.now())
        return try database.read { db in try DecisionHistoryTable.entries(db, notification: String(key), now: now) }
    }

    /// The latest `count` decisions, of `app` when given, newest first (`relayctl history`).
    public func recentDecisions(app: String?, count: Int = 50) throws -> [DecisionHistoryTable.Entry] {
        let now = WireTime.seconds(configuration.clock.now())
        return try database.read { db in try DecisionHistoryTable.recent(db, app: app, count: count, now: now) }
    }
}
