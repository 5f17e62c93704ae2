import Foundation
import GRDB
import RelayStore
import Testing

@Suite struct RelayDatabaseTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "relay-db-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("commits are durable (synchronous = FULL on the writer), in WAL mode, and the files are 0600")
    func durableAndPrivate() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try RelayDatabase(path: folder + "/test.sqlite", migrations: WearableSchema.migrations)
        let (synchronous, journal) = try database.write { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(synchronous == 2, "PRAGMA synchronous is \(synchronous ?? -1); 2 is FULL")
        #expect(journal == "wal")
        for file in ["test.sqlite", "test.sqlite-wal", "test.sqlite-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600, "\(file) has mode \(String(mode?.intValue ?? 0, radix: 8))")
        }
    }

    @Test("a database others may read is refused with the chmod to run")
    func looseModeIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/open.sqlite", contents: nil, attributes: [.posixPermissions: 0o644]))
        #expect {
            _ = try RelayDatabase(path: folder + "/open.sqlite", migrations: WearableSchema.migrations)
        } throws: { error in
            "\(error)".contains("chmod go-rwx")
        }
    }

    @Test("an unsynced write commits, is undone whole when it throws, and leaves the writer syncing again")
    func unsyncedWrite() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var migrations = DatabaseMigrator()
        migrations.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE item (value INTEGER NOT NULL)") }
        let database = try RelayDatabase(path: folder + "/test.sqlite", migrations: migrations)
        let during = try database.writeUnsynced { db in
            try db.execute(sql: "INSERT INTO item VALUES (1)")
            return try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(during == 1, "PRAGMA synchronous is \(during ?? -1) inside; 1 is NORMAL")
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try database.writeUnsynced { db in
                try db.execute(sql: "INSERT INTO item VALUES (2)")
                throw Refused()
            }
        }
        let (values, after) = try database.write { db in
            (try Int.fetchAll(db, sql: "SELECT value FROM item"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(values == [1])
        #expect(after == 2, "PRAGMA synchronous is \(after ?? -1) afterwards; 2 is FULL")
    }
}
