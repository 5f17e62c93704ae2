public import Foundation
public import Logging
public import RelayCore
import GRDB
public import RelayStore
public import RelayWire
import Synchronization

/// Carries the centre's changes to the wearable: runs the mirror policy, and persists in one
/// transaction the centre's records, the keys assigned and the log entries — then hands the
/// entries to the link. Called with the centre's lock held, so changes enter the log in the
/// order the centre made them.
public final class MirrorCoordinator: Sendable {
    /// Something that happened in the centre.
    public enum CentreChange: Sendable {
        /// Delivered or replaced; `record` is the centre's encoded record, to restore it after a restart.
        case posted(MirrorItem, replaced: Bool, record: Data)
        /// Gone from the centre.
        case removed(centreID: UInt32, reason: Relay_V1_RemoveReason)
        /// A scheduled request added or replaced.
        case scheduled(ScheduleItem)
        /// A scheduled request gone from the pending list.
        case unscheduled(appName: String, identifier: String)
        /// The wearable fired an occurrence of request `scheduleKey` by itself while apart; with
        /// `withdraw`, the app had removed the request, and the wearable's copy goes.
        case firedOnWearable(scheduleKey: UInt64, fireDate: Int64, alerted: Bool, withdraw: Bool)
    }

    /// The link the entries go to (and whose database holds everything).
    public let link: PhoneLink
    private let logger: Logger
    let mirror: Mutex<PhoneMirror>
    /// The wearable's entry last queued as applied, with the epoch of its log then, and the
    /// commit that stores it (set once queued).
    private let claimed = Mutex<(epoch: UInt64, through: UInt64, ticket: CommitTicket?)?>(nil)
    /// Why the last new notification was kept from the wearable; `nil` once one was mirrored.
    private let keptBack = Mutex<String?>(nil)

    /// The canned replies of the configuration, which those set with relayctl replace.
    let configuredReplies: [String]

    /// Restores the mirror from the database: `settings` are the configuration's, with the
    /// canned replies set with relayctl, if any were, in place of its own.
    public init(link: PhoneLink, settings configured: MirrorSettings, logger: Logger) throws {
        self.link = link
        self.logger = logger
        configuredReplies = configured.cannedReplies
        var settings = configured
        if let stored = try Self.storedUserReplies(in: link.database) { settings.cannedReplies = MirrorSettings.fitted(stored) }
        let (keys, stored) = try link.database.read { db in
            (try PhoneSchema.loadKeys(db), try PhoneSchema.loadNotifications(db))
        }
        var mirrored: [UInt32: PhoneMirror.Mirrored] = [:]
        for notification in stored {
            if let key = notification.key {
                mirrored[notification.centreID] = PhoneMirror.Mirrored(key: key, revision: notification.revision)
            }
        }
        // The wearable holds a copy of every pending request: restored with the requests.
        let apps = try link.database.read { db in try PhoneSchema.value(db, AppRequestsRecord.storageName) }
        let schedules = try apps.map(AppRequestsRecord.decode)?.scheduleKeyNames ?? []
        mirror = Mutex(
            PhoneMirror(keys: WireKeyTable(stored: keys), mirrored: mirrored, schedules: schedules, settings: settings))
    }

    /// The apps' registrations as stored, if any.
    public func storedAppRequests() throws -> AppRequestsRecord? {
        try link.database.read { db in try PhoneSchema.value(db, AppRequestsRecord.storageName) }.map(AppRequestsRecord.decode)
    }

    /// How the phone's own decisions begin in its history; for them `alerted` means that an
    /// alert was asked of the wearable (relayctl prints `alert asked` or `no alert asked`).
    public static let phoneSide = "on the phone: "

    /// The name the shared wishes are stored under (`centre_state`).
    static let preferencesName = "preferences"

    /// The shared wishes as stored; none before any was set. A manual do not disturb stored by an
    /// earlier version (`dnd_until`) is taken over.
    public func storedPreferences() throws -> SharedPreferences {
        try link.database.read(Self.storedPreferences)
    }

    private static func storedPreferences(_ db: Database) throws -> SharedPreferences {
        if let stored = try PhoneSchema.value(db, preferencesName) { return try Relay_V1_Preferences(serializedBytes: stored).preferences }
        var preferences = SharedPreferences()
        if let until = try PhoneSchema.doNotDisturb(db) {
            _ = preferences.setDoNotDisturb(.on(until: until.map(Date.init(timeIntervalSince1970:))), at: Date(timeIntervalSince1970: 0))
        }
        return preferences
    }

    /// Merges `change` into the stored wishes inside the transaction, forgetting old tombstones:
    /// each commit adds its own change to what earlier ones stored, so what is stored never holds
    /// a change whose own commit (and log entry) a crash could still take back.
    private static func storePreferences(_ db: Database, merging change: SharedPreferences, at now: Date) throws {
        var stored = try storedPreferences(db)
        stored.merge(change)
        stored.prune(at: now)
        try PhoneSchema.setValue(db, preferencesName, try Relay_V1_Preferences(stored).serializedBytes())
    }

    /// The centre's records as stored, to rebuild the centre at start-up.
    public func storedNotifications() throws -> [PhoneSchema.StoredNotification] {
        try link.database.read(PhoneSchema.loadNotifications)
    }

    /// The highest centre id ever stored, for the restored centre to continue after.
    public func storedLastCentreID() throws -> UInt32 {
        try link.database.read(PhoneSchema.lastCentreID)
    }

    /// How many notifications the wearable has (or will have once the log is through).
    public var mirroredCount: Int { mirror.withLock { $0.mirrored.count } }

    /// The centre id of a wire key, to apply a response from the wearable.
    public func centreID(ofKey key: UInt64) -> UInt32? {
        mirror.withLock { $0.centreID(ofKey: key) }
    }

    /// The key the wearable knows thread `thread` of `app` by, once one of its notifications was
    /// mirrored; a thread mute names it so.
    public func threadKey(app: String, thread: String) -> UInt64? {
        mirror.withLock { $0.keys.existingKey(.thread, app + "\u{1F}" + thread) }
    }

    /// The identifier of the thread the wearable knows by `key`, for lists of mutes.
    public func threadName(ofKey key: UInt64) -> String? {
        mirror.withLock { $0.keys.name(of: key, .thread) }.map { $0.split(separator: "\u{1F}", maxSplits: 1).last.map(String.init) ?? $0 }
    }

    /// The app and identifier of a scheduled request's wire key.
    public func scheduleName(ofKey key: UInt64) -> (appName: String, identifier: String)? {
        mirror.withLock { $0.scheduleName(ofKey: key) }
    }

    /// The centre's notification a response from the wearable is for (`PhoneMirror.centreID(answeredBy:in:)`).
    public func centreID(answeredBy response: Relay_V1_Response, in centre: NotificationCentre) -> UInt32? {
        mirror.withLock { $0.centreID(answeredBy: response, in: centre) }
    }

    /// The phone's record of occurrences, oldest first; requests are named `app\u{1F}identifier`.
    public func occurrences() throws -> [OccurrenceTable.Row] {
        try link.database.read(OccurrenceTable.load)
    }

    /// Whether entry `seq` of the wearable's log was applied already — committed, or queued
    /// for the next commit (two overlapping connections may both deliver it).
    public func isApplied(seq: UInt64) throws -> Bool {
        let stored = try link.database.read { db in try LinkLogTables.state(db) }
        let queued = claimed.withLock { $0 }
        let through = queued.map { $0.epoch == stored.peerEpoch ? max($0.through, stored.appliedThrough) : stored.appliedThrough }
        return (through ?? stored.appliedThrough) >= seq
    }

    /// Moves the cursor of the wearable's log past entry `seq`, which changes nothing here (a
    /// report that the wearable alerted). Written at once and without a sync of its own: a crash
    /// of the process keeps it, and the next synced commit makes it durable. A power cut before
    /// that can take it back after the wearable deleted the entry; the wearable then starts a
    /// new log of its events (`peerNeedsSnapshot`) with what it still holds unacknowledged, and
    /// what is lost is only the reports acknowledged since the last synced commit. The
    /// caller must have waited for every earlier entry's commit (the cursor moves one by one).
    /// `decision`, the wearable's report of what it decided, joins the phone's history in the
    /// same write.
    public func recordReportApplied(seq: UInt64, decision: DecisionHistoryTable.Entry? = nil) throws {
        try link.database.writeUnsynced { db in
            _ = try LinkLogTables.claim(db, seq: seq)
            if let decision { try DecisionHistoryTable.record(db, decision) }
        }
    }

    /// What the phone and the wearable decided about the centre's notification `centreID`, oldest
    /// first (`relayctl why --phone`).
    public func decisions(about centreID: UInt32) throws -> [DecisionHistoryTable.Entry] {
        let now = WireTime.seconds(Date())
        return try link.database.read { db in try DecisionHistoryTable.entries(db, notification: String(centreID), now: now) }
    }

    /// The latest `count` decisions, of `app` when given, newest first (`relayctl history --phone`).
    public func recentDecisions(app: String?, count: Int = 50) throws -> [DecisionHistoryTable.Entry] {
        let now = WireTime.seconds(Date())
        return try link.database.read { db in try DecisionHistoryTable.recent(db, app: app, count: count, now: now) }
    }

    /// The wearable's `Alerted` report as an entry of the phone's history, under the centre's id
    /// (`app` names the notification's app); `nil` for a notification the phone no longer maps.
    public func decision(reported alerted: Relay_V1_Alerted, at: Int64, app: (UInt32) -> String?) -> DecisionHistoryTable.Entry? {
        guard let centreID = centreID(ofKey: alerted.notificationKey) else { return nil }
        return DecisionHistoryTable.Entry(
            at: at, notification: String(centreID), revision: alerted.revision, app: app(centreID) ?? "", alerted: alerted.alerted,
            reason: "on the wearable: " + (alerted.alerted ? "alerted" : alerted.reason.truncated(toUTF8Bytes: 512)))
    }

    /// Records changes of the centre; with `seq`, as the effect of that entry of the wearable's
    /// log, whose cursor moves in the same transaction. `apps`, when given, is the apps'
    /// registrations (`AppRequestsRecord`), stored in the same transaction.
    ///
    /// The mirror's state moves at once (the caller holds the centre's lock, so changes keep
    /// the centre's order); the write is queued for the next group commit, and the entries go
    /// to the link once it is committed. Wait on the ticket before answering anyone. `then`
    /// runs after the commit, in the order of the calls (the apps' signals, which must not
    /// announce what a crash could still undo). `outbox`, signals encoded by the owner, is
    /// stored in the same transaction (`SignalOutboxTable`) for the owner to emit afterwards.
    ///
    /// `preferencesChange`, a change of the shared wishes, is merged into the stored ones in the
    /// same transaction; with `sendingPreferences` (a change made here, not one the wearable
    /// sent) it goes to the wearable with the notifications' changes. Call with the centre's
    /// lock held, as for every change, so that a new epoch's snapshot cannot come between.
    @discardableResult
    public func record(
        _ changes: [CentreChange], locked: Bool, policy: AlertPolicy? = nil, filter: FilterRules = FilterRules(),
        applying seq: UInt64? = nil, apps: Data? = nil,
        outbox: OutboxBatch? = nil, preferencesChange: SharedPreferences? = nil, sendingPreferences: Bool = false,
        reported: DecisionHistoryTable.Entry? = nil, then: (@Sendable () -> Void)? = nil
    ) -> CommitTicket {
        let now = Date()
        let paired = link.isPaired
        // The attachments' sizes come from the file system: looked up before the lock.
        let changes = paired ? changes.map(withAttachments) : changes
        // The filter rules' patterns run before the mirror's lock: what they cost holds up no one else there.
        let matched = paired ? changes.map { change -> MatchedRule? in
            switch change {
            case .posted(let item, _, _): filter.match(app: item.appName, content: item.content)
            case .scheduled(let item): filter.match(app: item.appName, content: item.content)
            default: nil
            }
        } : changes.map { _ in nil }
        // The policy runs on the mirror in place: a copy taken out of the lock would copy its
        // tables whole at the first change, for every notification.
        let (outcomes, rows, occurrences) = mirror.withLock { mirror in
            let outcomes = zip(changes, matched).map { change, rule in
                switch change {
                case .posted(let item, let replaced, _):
                    paired
                        ? mirror.posted(item, replaced: replaced, locked: locked, policy: policy, rule: rule, at: now)
                        : PhoneMirror.Outcome(decision: "not mirrored: no wearable is paired (relayctl pair pairs one)")
                case .removed(let centreID, let reason):
                    mirror.removed(centreID: centreID, reason: reason)
                case .scheduled(let item):
                    paired ? mirror.scheduled(item.matching(rule)) : PhoneMirror.Outcome(decision: "schedule not mirrored: no wearable is paired")
                case .unscheduled(let appName, let identifier):
                    mirror.unscheduled(appName: appName, identifier: identifier)
                case .firedOnWearable(let scheduleKey, _, _, let withdraw):
                    withdraw && paired
                        ? mirror.withdrawOccurrence(scheduleKey: scheduleKey)
                        : PhoneMirror.Outcome(decision: "the wearable fired an occurrence while apart")
                }
            }
            return (outcomes, Self.rows(of: changes, mirror), Self.occurrences(of: changes, mirror))
        }
        // The phone's decisions, for `relayctl why --phone`: each new or replaced notification's.
        let posted = zip(changes, outcomes).compactMap { change, outcome -> DecisionHistoryTable.Entry? in
            guard case .posted(let item, _, _) = change, !item.isSilent else { return nil }
            let asked = outcome.changes.contains { if case .upsert(let upsert)? = $0.kind { upsert.mayAlert } else { false } }
            return DecisionHistoryTable.Entry(
                at: WireTime.seconds(now), notification: String(item.centreID), revision: outcome.mirrored?.revision ?? 0, app: item.appName,
                alerted: asked, reason: Self.phoneSide + outcome.decision)
        }
        let decisions = posted + (reported.map { [$0] } ?? [])
        if let seq {
            let epoch = (try? link.database.read { db in try LinkLogTables.state(db).peerEpoch }) ?? 0
            claimed.withLock { $0 = (epoch, seq, nil) }
        }
        noteKeptBack(changes, outcomes)
        // One line per notification is for finding out why one did or did not reach the
        // wearable (RELAY_LOG=debug); at the default level it would cost more than the rest.
        for (change, outcome) in zip(changes, outcomes) {
            logger.debug("mirror: \(outcome.decision)", metadata: ["id": "\(Self.centreID(of: change))"])
        }
        let removed = changes.compactMap { change -> UInt32? in
            guard case .removed(let centreID, _) = change else { return nil }
            return centreID
        }
        let assigned = outcomes.flatMap(\.assigned)
        let preferencesEntries = sendingPreferences ? preferencesChange.map(PhoneMirror.preferencesChanges) ?? [] : []
        let logged = paired ? outcomes.flatMap(\.changes) + preferencesEntries : []
        let entries = Mutex<[(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)]>([])
        let link = self.link
        let work: @Sendable (Database) throws -> Void = { db in
            if let seq { _ = try LinkLogTables.claim(db, seq: seq) }
            if let outbox { outbox.stored(through: try SignalOutboxTable.append(db, outbox.signals, bus: outbox.bus)) }
            if let apps { try PhoneSchema.setValue(db, AppRequestsRecord.storageName, apps) }
            if let preferencesChange, !preferencesChange.isEmpty { try Self.storePreferences(db, merging: preferencesChange, at: now) }
            for decision in decisions { try DecisionHistoryTable.record(db, decision) }
            for assignment in assigned {
                try PhoneSchema.saveKey(db, kind: assignment.kind.rawValue, name: assignment.name, key: assignment.key)
            }
            try PhoneSchema.save(db, rows)
            try PhoneSchema.deleteNotifications(db, centreIDs: removed)
            for (schedule, fireDate, side) in occurrences {
                try OccurrenceTable.record(db, schedule: schedule, fireDate: fireDate, side: side)
            }
            let appended = try logged.map { change in
                let body = Relay_V1_Envelope.OneOf_Body.change(change)
                return (seq: try LinkLogTables.append(db, body), body: body)
            }
            entries.withLock { $0 = appended }
        }
        // Entries for the wearable leave while the commit syncs; without any, there is nothing
        // to hand on and the commit is synced as it is made.
        let ticket =
            logged.isEmpty
            ? link.committer.submit(work) { then?() }
            : link.committer.submit(work, written: { link.send(entries.withLock { $0 }) }, after: { then?() })
        if let seq { claimed.withLock { if $0?.through == seq { $0?.ticket = ticket } } }
        return ticket
    }

    /// Says at the default level why a new notification does not reach the wearable: the first
    /// one kept back for a reason, and again each time the reason changes or after one was
    /// mirrored. Every one is logged at debug level (below); a line for each at the default level
    /// would flood the log of a phone that is simply unpaired or in use, and cost as much as
    /// storing the notification. Silent notifications are never mirrored, by design, and leave
    /// the reason last said as it was.
    private func noteKeptBack(_ changes: [CentreChange], _ outcomes: [PhoneMirror.Outcome]) {
        for (change, outcome) in zip(changes, outcomes) {
            guard case .posted(let item, false, _) = change, !item.isSilent else { continue }
            let reason = outcome.mirrored == nil && outcome.changes.isEmpty ? outcome.decision : nil
            let isNew = keptBack.withLock { last in
                defer { last = reason }
                return reason != nil && reason != last
            }
            guard isNew, let reason else { continue }
            logger.info(
                "mirror: notification \(item.centreID) from \(item.appName) is \(reason); later ones kept back for the same reason are logged only with RELAY_LOG=debug")
        }
    }

    /// The commit of the wearable's entry last claimed, while it is not yet done: an entry
    /// found already applied, or one that follows it, may be acknowledged only once it is.
    /// Call with the centre's lock held; wait on it after releasing the lock.
    public func pendingClaim() -> CommitTicket? {
        guard let ticket = claimed.withLock({ $0?.ticket }), !ticket.isDone else { return nil }
        return ticket
    }

    /// Where the settings last put in the wearable's log are kept.
    static let sentSettingsName = "sent_settings"

    /// Puts the mirror's settings (previews, language, canned replies) in the wearable's log
    /// when they are not the ones last put there: a phone started with another configuration.
    /// Returns once it is on disk.
    public func sendSettingsIfChanged() throws {
        guard link.isPaired else { return }
        let change = mirror.withLock { $0.settingsChange() }
        let encoded: Data = try change.settings.serializedBytes()
        guard try link.database.read({ db in try PhoneSchema.value(db, Self.sentSettingsName) }) != encoded else { return }
        let entries = Mutex<[(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)]>([])
        let link = self.link
        try link.committer.submit({ db in
            try PhoneSchema.setValue(db, Self.sentSettingsName, encoded)
            let body = Relay_V1_Envelope.OneOf_Body.change(change)
            let seq = try LinkLogTables.append(db, body)
            entries.withLock { $0 = [(seq, body)] }
        }, written: { link.send(entries.withLock { $0 }) }, after: {}).waitBlocking()
    }

    /// Those of `items` (scheduled requests) whose filter rule under `filter` is not the one
    /// they were last mirrored with, or not known to be (restored from storage).
    public func schedules(_ items: [ScheduleItem], changedUnder filter: FilterRules) -> [ScheduleItem] {
        // Unpaired, nothing is mirrored and nothing would settle.
        guard link.isPaired else { return [] }
        let rules = items.map { filter.match(app: $0.appName, content: $0.content) }
        return mirror.withLock { mirror in
            zip(items, rules).compactMap { item, rule in
                mirror.scheduleRules[item.keyName].map { $0 == rule } == true ? nil : item
            }
        }
    }

    /// Starts a new log epoch with a snapshot of `items` (the centre's notifications). For a
    /// new partner nothing counts as mirrored any more, so the snapshot only clears its replica.
    /// `skippingKeys` is for after a power cut that may have lost commits the wearable saw:
    /// keys then go on far past any it may hold (`WireKeyTable.skipAhead`).
    ///
    /// As with `record`, the mirror's state moves at once (the caller holds the centre's lock)
    /// and the write is queued: the epoch's number is chosen here, so the snapshot needs nothing
    /// from the transaction, and changes recorded after it follow it in the log. Wait on the
    /// ticket, after the centre's lock is released, before answering anyone.
    @discardableResult
    public func startNewEpoch(
        items: [MirrorItem], schedules: [ScheduleItem] = [], newPartner: Bool, skippingKeys: Bool = false,
        filter: FilterRules = FilterRules()
    ) -> CommitTicket {
        let items = items.map(withAttachments)
        let settings = try? mirror.withLock { $0.settingsChange() }.settings.serializedBytes() as Data
        let schedules = schedules.map { withAttachments($0).matching(filter.match(app: $0.appName, content: $0.content)) }
        let epoch = LinkLogTables.freshEpoch()
        let (skipped, outcome, mirrored) = mirror.withLock { mirror in
            if newPartner { mirror.forgetMirrored() }
            let skipped = skippingKeys ? mirror.skipKeysAhead() : []
            let outcome = mirror.snapshot(items, schedules: schedules, epoch: epoch)
            return (skipped, outcome, mirror.mirrored)
        }
        let paired = link.isPaired
        let logged = paired ? outcome.changes : []
        let entries = Mutex<[(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)]>([])
        let (link, logger) = (self.link, self.logger)
        // The mirror has moved to the new epoch and cannot go back: a failed write stops the
        // phone (its storage-failure handler), so that the next start rebuilds from what is stored.
        return link.committer.submit(mustLand: true) { db in
            // A new partner: the old one's cursors go in the same transaction as its mirrored
            // keys, so that a crash between them cannot leave an empty log over the old map.
            if newPartner { try PhoneSchema.forgetLink(db) }
            try LinkLogTables.startNewEpoch(db, epoch: epoch)
            if newPartner { try PhoneSchema.forgetMirroredKeys(db) }
            // The snapshot carries the settings.
            if paired, let settings { try PhoneSchema.setValue(db, Self.sentSettingsName, settings) }
            for assignment in skipped + outcome.assigned {
                try PhoneSchema.saveKey(db, kind: assignment.kind.rawValue, name: assignment.name, key: assignment.key)
            }
            for (centreID, mirrored) in mirrored {
                try PhoneSchema.saveMirroredKey(db, centreID: centreID, key: mirrored.key, revision: mirrored.revision)
            }
            // The shared wishes as stored by every commit before this one: merged on the wearable
            // item by item, so what it changed meanwhile and newer stays.
            let preferences = paired ? PhoneMirror.preferencesChanges(try Self.storedPreferences(db)) : []
            let appended = try (logged + preferences).map { change in
                let body = Relay_V1_Envelope.OneOf_Body.change(change)
                return (seq: try LinkLogTables.append(db, body), body: body)
            }
            entries.withLock { $0 = appended }
        } after: {
            let sent = entries.withLock { $0 }
            link.send(sent)
            logger.info("mirror: new log epoch", metadata: ["entries": "\(sent.count)", "newPartner": "\(newPartner)"])
        }
    }

    /// The centre's records to store for `changes`, with their wire keys and revisions.
    private static func rows(of changes: [CentreChange], _ mirror: PhoneMirror) -> [PhoneSchema.StoredNotification] {
        changes.compactMap { change in
            guard case .posted(let item, _, let record) = change else { return nil }
            let mirrored = mirror.mirrored[item.centreID]
            return PhoneSchema.StoredNotification(
                centreID: item.centreID, key: mirrored?.key, revision: mirrored?.revision ?? 0, record: record)
        }
    }

    /// The occurrences of scheduled requests that `changes` saw, for the occurrence table.
    private static func occurrences(
        of changes: [CentreChange], _ mirror: PhoneMirror
    ) -> [(schedule: String, fireDate: Int64, side: OccurrenceTable.Side)] {
        changes.compactMap { change in
            switch change {
            case .posted(let item, _, _):
                guard let origin = item.occurrence else { return nil }
                return (
                    AppRequests.name(appID: item.appName, identifier: origin.identifier),
                    WireTime.seconds(origin.occurrence.fireDate), .phone
                )
            case .firedOnWearable(let scheduleKey, let fireDate, let alerted, _):
                guard let name = mirror.scheduleName(ofKey: scheduleKey) else { return nil }
                return (AppRequests.name(appID: name.appName, identifier: name.identifier), fireDate, .wearable(alerted: alerted))
            default:
                return nil
            }
        }
    }

    /// The change with references to its attachments in the phone's store.
    private func withAttachments(_ change: CentreChange) -> CentreChange {
        switch change {
        case .posted(let item, let replaced, let record): .posted(withAttachments(item), replaced: replaced, record: record)
        case .scheduled(let item): .scheduled(withAttachments(item))
        default: change
        }
    }

    /// The item with references to its attachments in the phone's store.
    private func withAttachments(_ item: MirrorItem) -> MirrorItem {
        var item = item
        item.attachments = link.attachmentReferences(item.content.attachments)
        return item
    }

    private func withAttachments(_ item: ScheduleItem) -> ScheduleItem {
        var item = item
        item.attachments = link.attachmentReferences(item.content.attachments)
        return item
    }

    private static func centreID(of change: CentreChange) -> String {
        switch change {
        case .posted(let item, _, _): "\(item.centreID)"
        case .removed(let centreID, _): "\(centreID)"
        case .scheduled(let item): "\(item.appName)/\(item.identifier)"
        case .unscheduled(let appName, let identifier): "\(appName)/\(identifier)"
        case .firedOnWearable(let scheduleKey, let fireDate, _, _): "schedule \(scheduleKey) at \(fireDate)"
        }
    }
}
