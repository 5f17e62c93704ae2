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
}
