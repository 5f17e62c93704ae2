import Foundation
public import GRDB
import Glibc
import RelaySystem

/// One agent's SQLite database: a GRDB `DatabasePool` in WAL mode, mode 0600, migrated to
/// the newest schema on open.
///
/// Writes are serialised by the pool and each `write` is one transaction, which is what the
/// "persist before acknowledging" rule needs: an applied change, its cursor and any event it
/// produces commit together or not at all. `synchronous = FULL` makes a commit durable
/// against power loss, not only against a crash of the process, because acknowledging means
/// promising the peer never to ask again.
public final class RelayDatabase: Sendable {
    /// The file's path.
    public let path: String
    /// The pool; readers see the last committed state while a write is in progress.
    public let pool: DatabasePool

    /// Opens (creating if needed) the database at `path` and applies `migrations`.
    public init(path: String, migrations: DatabaseMigrator) throws(StoreError) {
        self.path = path
        // SQLite creates the -wal and -shm files with the database file's mode, so creating
        // the main file as 0600 first keeps all three private whatever the umask is.
        try PrivateFiles.ensureFile(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // Small databases on small devices: two readers at most (the agents read little, and
        // rarely at once) and 512 KiB of page cache a connection instead of SQLite's 2 MiB.
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -512") }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // Set on the writer after the pool is open: the pool sets `NORMAL` itself while it
            // switches to WAL, after any `prepareDatabase` hook has run.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try migrations.migrate(pool)
        } catch {
            throw .corrupt(path, "SQLite: \(error)")
        }
    }

    /// Runs `body` in one write transaction.
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.write(body)
    }

    /// Runs `body` in one write transaction that is not synced to disk when it commits: for
    /// writes a power cut may lose at no cost, such as deleting acknowledged log entries (the
    /// next handshake's cursors acknowledge them again), and for a commit to act on while it is
    /// synced (`syncLog`) before anything acknowledges it. A crash of the process loses neither.
    /// The write-ahead log only grows, so the next synced commit makes this one durable as well,
    /// and nothing is ever durable out of order.
    public func writeUnsynced<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            // Prepared once per connection: for some agents this is every notification's commit.
            try db.cachedStatement(sql: "PRAGMA synchronous = NORMAL").execute()
            defer { try? db.cachedStatement(sql: "PRAGMA synchronous = FULL").execute() }
            var result: T?
            try db.inTransaction {
                result = try body(db)
                return .commit
            }
            guard let result else { throw StoreError.corrupt(path, "the write transaction did not run") }
            return result
        }
    }

    /// Makes every commit so far durable, those of `writeUnsynced` included: syncs the
    /// write-ahead log, where commits wait until a checkpoint copies them into the database.
    ///
    /// This lets an agent act on a commit while its sync is under way and acknowledge only
    /// after this returns. The log is opened by name each time, so a log SQLite replaced is
    /// never the one synced.
    public func syncLog() throws(StoreError) {
        let log = path + "-wal"
        do throws(SystemError) {
            let descriptor = try SystemError.retrying("open(\(log))") { open(log, O_RDONLY | O_CLOEXEC) }
            defer { close(descriptor) }
            try SystemError.retrying("fdatasync(\(log))") { fdatasync(descriptor) }
        } catch {
            throw .system(error)
        }
    }

    /// Runs `body` on a consistent read-only view.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }
}
