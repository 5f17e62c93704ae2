public import Foundation
public import Logging
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
    }

    /// The link the entries go to (and whose database holds everything).
    public let link: PhoneLink
    private let logger: Logger
    private let mirror: Mutex<PhoneMirror>

    /// Restores the mirror from the database.
    public init(link: PhoneLink, settings: MirrorSettings, logger: Logger) throws {
        self.link = link
        self.logger = logger
        let (keys, stored) = try link.database.read { db in
            (try PhoneSchema.loadKeys(db), try PhoneSchema.loadNotifications(db))
        }
        var mirrored: [UInt32: PhoneMirror.Mirrored] = [:]
        for notification in stored {
            if let key = notification.key {
                mirrored[notification.centreID] = PhoneMirror.Mirrored(key: key, revision: notification.revision)
            }
        }
        mirror = Mutex(PhoneMirror(keys: WireKeyTable(stored: keys), mirrored: mirrored, settings: settings))
    }

    /// The apps' registrations as stored, if any.
    public func storedAppRequests() throws -> AppRequestsRecord? {
        try link.database.read { db in try PhoneSchema.value(db, AppRequestsRecord.storageName) }.map(AppRequestsRecord.decode)
    }

    /// The centre's records as stored, to rebuild the centre at start-up.
    public func storedNotifications() throws -> [PhoneSchema.StoredNotification] {
        try link.database.read(PhoneSchema.loadNotifications)
    }

    /// How many notifications the wearable has (or will have once the log is through).
    public var mirroredCount: Int { mirror.withLock { $0.mirrored.count } }

    /// The centre id of a wire key, to apply a response from the wearable.
    public func centreID(ofKey key: UInt64) -> UInt32? {
        mirror.withLock { $0.centreID(ofKey: key) }
    }

    /// Whether entry `seq` of the wearable's log was applied already.
    public func isApplied(seq: UInt64) throws -> Bool {
        try link.database.read { db in try LinkLogTables.state(db).appliedThrough >= seq }
    }

    /// Records changes of the centre; with `seq`, as the effect of that entry of the wearable's
    /// log, whose cursor moves in the same transaction.
    /// `apps`, when given, is the apps' registrations (`AppRequestsRecord`), stored in the same transaction.
    public func record(_ changes: [CentreChange], locked: Bool, applying seq: UInt64? = nil, apps: Data? = nil) throws {
        let paired = link.isPaired
        var mirror = self.mirror.withLock { $0 }
        var outcomes: [PhoneMirror.Outcome] = []
        for change in changes {
            switch change {
            case .posted(let item, let replaced, _):
                outcomes.append(
                    paired
                        ? mirror.posted(item, replaced: replaced, locked: locked)
                        : PhoneMirror.Outcome(decision: "not mirrored: no wearable is paired"))
            case .removed(let centreID, let reason):
                outcomes.append(mirror.removed(centreID: centreID, reason: reason))
            }
        }
        let entries = try link.database.write { db -> [(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)] in
            if let seq { _ = try LinkLogTables.claim(db, seq: seq) }
            if let apps { try PhoneSchema.setValue(db, AppRequestsRecord.storageName, apps) }
            for assignment in outcomes.flatMap(\.assigned) {
                try PhoneSchema.saveKey(db, kind: assignment.kind.rawValue, name: assignment.name, key: assignment.key)
            }
            for change in changes {
                switch change {
                case .posted(let item, _, let record):
                    let mirrored = mirror.mirrored[item.centreID]
                    try PhoneSchema.save(
                        db,
                        PhoneSchema.StoredNotification(
                            centreID: item.centreID, key: mirrored?.key, revision: mirrored?.revision ?? 0, record: record))
                case .removed(let centreID, _):
                    try PhoneSchema.deleteNotification(db, centreID: centreID)
                }
            }
            return try outcomes.flatMap(\.changes).map { change in
                let body = Relay_V1_Envelope.OneOf_Body.change(change)
                return (try LinkLogTables.append(db, body), body)
            }
        }
        self.mirror.withLock { $0 = mirror }
        for (change, outcome) in zip(changes, outcomes) {
            logger.info("mirror: \(outcome.decision)", metadata: ["id": "\(Self.centreID(of: change))"])
        }
        link.send(entries)
    }

    /// Starts a new log epoch with a snapshot of `items` (the centre's notifications). For a
    /// new partner nothing counts as mirrored any more, so the snapshot only clears its replica.
    public func startNewEpoch(items: [MirrorItem], newPartner: Bool) throws {
        var mirror = self.mirror.withLock { $0 }
        if newPartner { mirror.forgetMirrored() }
        let paired = link.isPaired
        let entries = try link.database.write { db -> [(seq: UInt64, body: Relay_V1_Envelope.OneOf_Body)] in
            let epoch = try LinkLogTables.startNewEpoch(db)
            if newPartner { try db.execute(sql: "UPDATE centre_notification SET key = NULL, revision = 0") }
            let outcome = mirror.snapshot(items, epoch: epoch)
            for assignment in outcome.assigned {
                try PhoneSchema.saveKey(db, kind: assignment.kind.rawValue, name: assignment.name, key: assignment.key)
            }
            for (centreID, mirrored) in mirror.mirrored {
                try db.execute(
                    sql: "UPDATE centre_notification SET key = ?, revision = ? WHERE centre_id = ?",
                    arguments: [Int64(mirrored.key), Int64(mirrored.revision), Int64(centreID)])
            }
            guard paired else { return [] }
            return try outcome.changes.map { change in
                let body = Relay_V1_Envelope.OneOf_Body.change(change)
                return (try LinkLogTables.append(db, body), body)
            }
        }
        self.mirror.withLock { $0 = mirror }
        logger.info("mirror: new log epoch", metadata: ["entries": "\(entries.count)", "newPartner": "\(newPartner)"])
        link.send(entries)
    }

    private static func centreID(of change: CentreChange) -> UInt32 {
        switch change {
        case .posted(let item, _, _): item.centreID
        case .removed(let centreID, _): centreID
        }
    }
}
