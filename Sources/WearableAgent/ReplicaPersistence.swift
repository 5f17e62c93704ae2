public import GRDB
import RelayCore
import RelayStore
import RelayWire

/// Maps the replica onto the wearable's database (`WearableSchema`, `SnapshotProgressTable`,
/// `OccurrenceTable`): its effects written inside the caller's transaction, its contents read
/// back after a restart. The store speaks in rows; the replica's own types stay here.
public enum ReplicaPersistence {
    static func persist(_ effects: [ReplicaEffect], in db: Database) throws {
        for effect in effects {
            switch effect {
            case .stored(let record, _): try WearableSchema.save(db, record.row)
            case .removed(let key, let revision): try WearableSchema.remove(db, key: key, revision: revision)
            case .answered(let key): try WearableSchema.markAnswered(db, key: key)
            case .appNamed(let key, let name): try WearableSchema.saveApp(db, key: key, name: name)
            case .appRemoved(let key): try WearableSchema.removeApp(db, key: key)
            case .categoryChanged(let category): try WearableSchema.saveCategory(db, category)
            case .categoryRemoved(let key): try WearableSchema.removeCategory(db, key: key)
            case .settingsChanged(let settings): try WearableSchema.saveSettings(db, settings)
            case .preferencesChanged(let preferences, let shared):
                try WearableSchema.savePreferences(db, row: shared ? 1 : 2, Relay_V1_Preferences(preferences))
            case .tombstonesCleared: try WearableSchema.clearTombstones(db)
            case .tombstonesDropped(let keys): try WearableSchema.dropTombstones(db, keys: keys)
            case .snapshotBegan(let epoch): try SnapshotProgressTable.begin(db, epoch: epoch)
            case .snapshotMentioned(let mention): try SnapshotProgressTable.mention(db, mention.stored)
            case .snapshotEnded: try SnapshotProgressTable.clear(db)
            case .scheduleChanged(let schedule): try WearableSchema.saveSchedule(db, schedule)
            case .scheduleRemoved(let key): try WearableSchema.removeSchedule(db, key: key)
            case .report: break  // appended to the outbound log by the caller
            case .attachmentsReleased: break  // the files go after the commit (WearableLink.sweepAttachments)
            case .firingFloor(let floor): try WearableSchema.saveFiringFloor(db, floor)
            case .handled(let key, let through): try WearableSchema.saveHandled(db, scheduleKey: key, through: through)
            case .firedHere(let key, let fireDate, let alerted):
                try OccurrenceTable.record(db, schedule: String(key), fireDate: fireDate, side: .wearable(alerted: alerted))
            case .reconciled(let key, let through): try OccurrenceTable.reconcile(db, schedule: String(key), through: through)
            case .decided(let key, let revision, let app, let alerted, let reason, let at):
                try DecisionHistoryTable.record(
                    db, DecisionHistoryTable.Entry(at: at, notification: String(key), revision: revision, app: app, alerted: alerted, reason: reason))
            }
        }
    }

    /// The replica as stored, read inside the caller's transaction.
    public static func load(_ db: Database) throws -> ReplicaContents {
        var contents = ReplicaContents()
        for row in try WearableSchema.loadNotifications(db) {
            contents.notifications[row.key] = ReplicaRecord(row)
        }
        contents.tombstones = try WearableSchema.loadTombstones(db)
        contents.apps = try WearableSchema.loadApps(db)
        for category in try WearableSchema.loadCategories(db) {
            contents.categories[category.category.key] = category
        }
        for schedule in try WearableSchema.loadSchedules(db) {
            contents.schedules[schedule.key] = schedule
        }
        contents.settings = try WearableSchema.loadSettings(db) ?? contents.settings
        contents.preferences = try WearableSchema.loadPreferences(db, row: 1)?.preferences ?? SharedPreferences()
        contents.ownDoNotDisturb = try WearableSchema.loadPreferences(db, row: 2)?.preferences ?? SharedPreferences()
        contents.firing.floor = try WearableSchema.loadFiringFloor(db)
        contents.firing.handledThrough = try WearableSchema.loadHandled(db)
        for row in try OccurrenceTable.load(db) where row.onWearable && !row.reconciled {
            guard let key = UInt64(row.schedule) else { continue }
            contents.firing.unreconciled[key] = max(contents.firing.unreconciled[key] ?? row.fireDate, row.fireDate)
        }
        contents.snapshot = try SnapshotProgressTable.load(db).map(SnapshotProgress.init)
        return contents
    }
}

extension ReplicaRecord {
    /// The record as its row.
    fileprivate var row: WearableSchema.NotificationRow {
        WearableSchema.NotificationRow(
            key: key, revision: revision, appKey: appKey, content: content, deliveredAt: deliveredAt, alerted: alerted,
            occurrence: occurrence, answered: answered, defaultAction: defaultAction)
    }

    /// A record read from its row.
    fileprivate init(_ row: WearableSchema.NotificationRow) {
        self.init(
            key: row.key, revision: row.revision, appKey: row.appKey, content: row.content, deliveredAt: row.deliveredAt,
            alerted: row.alerted, occurrence: row.occurrence, answered: row.answered, defaultAction: row.defaultAction)
    }
}

extension SnapshotProgress {
    /// A snapshot in progress as it was stored.
    fileprivate init(_ stored: SnapshotProgressTable.Stored) {
        self.init(epoch: stored.epoch)
        for mention in stored.mentions {
            switch mention.kind {
            case .notification: insert(.notification(mention.key))
            case .category: insert(.category(UInt32(truncatingIfNeeded: mention.key)))
            case .app: insert(.app(UInt32(truncatingIfNeeded: mention.key)))
            case .schedule: insert(.schedule(mention.key))
            }
        }
    }
}

extension SnapshotProgress.Mention {
    /// The mention as stored.
    fileprivate var stored: SnapshotProgressTable.Mention {
        switch self {
        case .notification(let key): SnapshotProgressTable.Mention(kind: .notification, key: key)
        case .category(let key): SnapshotProgressTable.Mention(kind: .category, key: UInt64(key))
        case .app(let key): SnapshotProgressTable.Mention(kind: .app, key: UInt64(key))
        case .schedule(let key): SnapshotProgressTable.Mention(kind: .schedule, key: key)
        }
    }
}
