import Foundation
import RelayStore
import RelayWire

@testable import WearableAgent

/// The replica as a restarted wearable has it: each change's effects stored as the agent
/// stores them, then everything read back into a new replica.
final class StoredReplica {
    let folder: String
    let database: RelayDatabase
    var replica = Replica()

    init() throws {
        folder = NSTemporaryDirectory() + "relay-snapshot-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        database = try RelayDatabase(path: folder + "/wearable.sqlite", migrations: WearableSchema.migrations)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    @discardableResult
    func apply(_ change: Relay_V1_Change) throws -> [ReplicaEffect] {
        let effects = replica.apply(change)
        try database.write { db in try ReplicaPersistence.persist(effects, in: db) }
        return effects
    }

    func restart() throws {
        replica = Replica(contents: try database.read(ReplicaPersistence.load))
    }
}
