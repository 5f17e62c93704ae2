import GRDB
import RelayStore

/// Writes the replica's effects to the wearable's database, inside the caller's transaction.
enum ReplicaPersistence {
    static func persist(_ effects: [ReplicaEffect], in db: Database) throws {
        for effect in effects {
            switch effect {
            case .stored(let record, _): try WearableSchema.save(db, record)
            case .removed(let key, let revision): try WearableSchema.remove(db, key: key, revision: revision)
            case .answered(let key): try WearableSchema.markAnswered(db, key: key)
            case .appNamed(let key, let name): try WearableSchema.saveApp(db, key: key, name: name)
            case .appRemoved(let key): try WearableSchema.removeApp(db, key: key)
            case .categoryChanged(let category): try WearableSchema.saveCategory(db, category)
            case .categoryRemoved(let key): try WearableSchema.removeCategory(db, key: key)
            case .settingsChanged(let settings): try WearableSchema.saveSettings(db, settings)
            case .tombstonesCleared: try WearableSchema.clearTombstones(db)
            case .tombstonesDropped(let keys): try WearableSchema.dropTombstones(db, keys: keys)
            case .snapshotBegan(let epoch): try SnapshotProgressTable.begin(db, epoch: epoch)
            case .snapshotMentioned(let mention): try SnapshotProgressTable.mention(db, mention)
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
            }
        }
    }
}
