import Foundation
import GRDB
import RelayStore
import Synchronization
import Testing

/// The group committer against a real database: what is queued together commits together, a
/// failing job is undone alone, and the callbacks run after the commit in queue order.
@Suite(.timeLimit(.minutes(1)))
struct GroupCommitterTests {
    /// Counts the commits of the database it observes.
    final class CommitCounter: TransactionObserver, Sendable {
        let commits = Atomic<Int>(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { commits.add(1, ordering: .relaxed) }
        func databaseDidRollback(_ db: Database) {}
    }

    struct Refused: Error {}

    private func withCommitter(_ body: (GroupCommitter, RelayDatabase, CommitCounter) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "relay-committer-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var migrations = DatabaseMigrator()
        migrations.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE item (value INTEGER NOT NULL)") }
        let database = try RelayDatabase(path: folder + "/test.sqlite", migrations: migrations)
        let counter = CommitCounter()
        database.pool.add(transactionObserver: counter, extent: .databaseLifetime)
        let committer = GroupCommitter(database: database, name: "test committer")
        defer { committer.stop() }
        try body(committer, database, counter)
    }

    private static func insert(_ value: Int) -> @Sendable (Database) throws -> Void {
        { db in try db.execute(sql: "INSERT INTO item (value) VALUES (?)", arguments: [value]) }
    }

    /// Submits what `queue` submits while the committer is busy with a job that waits for it,
    /// so that all of it forms the next batch: one transaction.
    private func asOneBatch<Result>(_ committer: GroupCommitter, _ queue: () throws -> Result) throws -> Result {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let blocker = committer.submit { _ in
            started.signal()
            proceed.wait()
        }
        started.wait()
        let result = try queue()
        proceed.signal()
        try blocker.waitBlocking()
        return result
    }

    private func values(_ database: RelayDatabase) throws -> [Int] {
        try database.read { db in try Int.fetchAll(db, sql: "SELECT value FROM item ORDER BY value") }
    }

    @Test func theStorageFailureHandlerHearsOfAFailingDiskBeforeTheTicketAndNotOfARefusedWrite() throws {
        try withCommitter { committer, _, _ in
            let heard = Mutex<[Int32]>([])
            committer.whenStorageFails { error in heard.withLock { $0.append((error as? DatabaseError)?.resultCode.rawValue ?? -1) } }
            try committer.submit(Self.insert(1)).waitBlocking()
            let refused = committer.submit { _ in throw Refused() }
            #expect(throws: Refused.self) { try refused.waitBlocking() }
            let constraint = committer.submit { db in try db.execute(sql: "INSERT INTO item (value) VALUES (NULL)") }
            #expect(throws: DatabaseError.self) { try constraint.waitBlocking() }
            #expect(heard.withLock { $0 }.isEmpty, "a write refused for what it held is not the disk's failure")
            let full = committer.submit { _ in throw DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full") }
            #expect(throws: DatabaseError.self) { try full.waitBlocking() }
            #expect(heard.withLock { $0 } == [ResultCode.SQLITE_FULL.rawValue], "heard before the ticket completed")
            try committer.submit(Self.insert(2)).waitBlocking()
            #expect(heard.withLock { $0 }.count == 1)
        }
    }

    @Test func aRefusedWriteThatMustLandIsHeardAsTheDisksFailureIs() throws {
        try withCommitter { committer, database, _ in
            let heard = Mutex<[String]>([])
            committer.whenStorageFails { error in heard.withLock { $0.append("\(type(of: error))") } }
            let refused = committer.submit(mustLand: true) { db in
                try Self.insert(7)(db)
                throw Refused()
            }
            #expect(throws: Refused.self) { try refused.waitBlocking() }
            #expect(heard.withLock { $0 } == ["Refused"], "heard, although the disk did not fail")
            #expect(try values(database).isEmpty, "its write undone")
            try committer.submit(mustLand: true, Self.insert(8)).waitBlocking()
            #expect(heard.withLock { $0 }.count == 1, "a job that lands is not heard of")
        }
    }

    @Test func jobsQueuedTogetherCommitInOneTransactionBeforeAnyCallback() throws {
        try withCommitter { committer, database, counter in
            let committed = Mutex<[Int]>([])
            let (tickets, commitsBefore) = try asOneBatch(committer) {
                let tickets = (1...3).map { value in
                    let ticket = committer.submit(Self.insert(value))
                    ticket.whenCommitted { _ in committed.withLock { $0.append(value) } }
                    return ticket
                }
                // The committer is busy with the job before: nothing of these can have run.
                #expect(committed.withLock { $0 }.isEmpty)
                return (tickets, counter.commits.load(ordering: .relaxed))
            }
            for ticket in tickets { try ticket.waitBlocking() }
            #expect(try values(database) == [1, 2, 3])
            #expect(committed.withLock { $0 } == [1, 2, 3])
            // The blocking job's transaction, then one for the three.
            #expect(counter.commits.load(ordering: .relaxed) == commitsBefore + 2)
        }
    }

    @Test func aFailingJobIsUndoneAloneAndTheOthersCommit() throws {
        try withCommitter { committer, database, counter in
            let failures = Mutex<[Int: Bool]>([:])
            let commitsBefore = counter.commits.load(ordering: .relaxed)
            let tickets = try asOneBatch(committer) {
                [
                    committer.submit(Self.insert(1)),
                    committer.submit { db in
                        try Self.insert(2)(db)
                        throw Refused()
                    },
                    committer.submit(Self.insert(3)),
                ]
            }
            for (index, ticket) in tickets.enumerated() {
                ticket.whenCommitted { failure in failures.withLock { $0[index] = failure != nil } }
            }
            try tickets[0].waitBlocking()
            #expect(throws: Refused.self) { try tickets[1].waitBlocking() }
            try tickets[2].waitBlocking()
            #expect(try values(database) == [1, 3])
            #expect(failures.withLock { $0 } == [0: false, 1: true, 2: false])
            #expect(counter.commits.load(ordering: .relaxed) == commitsBefore + 2)

            // Alone in its transaction, a failing job leaves nothing behind either.
            let alone = committer.submit { db in
                try Self.insert(4)(db)
                throw Refused()
            }
            #expect(throws: Refused.self) { try alone.waitBlocking() }
            #expect(try values(database) == [1, 3])
            // And the committer goes on.
            try committer.submit(Self.insert(5)).waitBlocking()
            #expect(try values(database) == [1, 3, 5])
        }
    }

    @Test func afterHooksAndCommitCallbacksRunInQueueOrder() throws {
        try withCommitter { committer, _, _ in
            let events = Mutex<[String]>([])
            let tickets = try asOneBatch(committer) {
                (1...3).map { value in
                    let ticket = committer.submit(Self.insert(value)) { events.withLock { $0.append("after \(value)") } }
                    ticket.whenCommitted { _ in events.withLock { $0.append("committed \(value)") } }
                    return ticket
                }
            }
            for ticket in tickets { try ticket.waitBlocking() }
            #expect(events.withLock { $0 } == ["after 1", "committed 1", "after 2", "committed 2", "after 3", "committed 3"])
            // Once committed, a callback runs at once.
            let late = Mutex(false)
            tickets[0].whenCommitted { failure in late.withLock { $0 = failure == nil } }
            #expect(late.withLock { $0 })
        }
    }

    /// `written` is for handing a commit on while it syncs: it sees the batch committed (a
    /// reader finds it), runs for every job that held before any `after`, and never for a job
    /// that failed.
    @Test func writtenHooksRunOnceCommittedBeforeAnyAfterHook() throws {
        try withCommitter { committer, database, _ in
            let events = Mutex<[String]>([])
            let tickets = try asOneBatch(committer) {
                (1...3).map { value in
                    committer.submit { db in
                        try Self.insert(value)(db)
                        if value == 2 { throw Refused() }
                    } written: {
                        let seen = (try? self.values(database)) ?? []
                        events.withLock { $0.append("written \(value), stored \(seen)") }
                    } after: {
                        events.withLock { $0.append("after \(value)") }
                    }
                }
            }
            try tickets[0].waitBlocking()
            #expect(throws: Refused.self) { try tickets[1].waitBlocking() }
            try tickets[2].waitBlocking()
            #expect(
                events.withLock { $0 } == ["written 1, stored [1, 3]", "written 3, stored [1, 3]", "after 1", "after 3"])
        }
    }

    /// A job that hands its commit on is written at once on its submitter's thread when the
    /// committer is idle (sparing a wake-up), and waits its turn behind a transaction under way.
    @Test func aJobThatHandsItsCommitOnIsWrittenOnTheCallersThreadOnlyWhenNothingIsAhead() throws {
        try withCommitter { committer, database, _ in
            let caller = pthread_self()
            let ranOn = Mutex<[Int: pthread_t]>([:])
            let events = Mutex<[String]>([])
            func handingOn(_ value: Int) -> CommitTicket {
                committer.submit { db in
                    ranOn.withLock { $0[value] = pthread_self() }
                    try Self.insert(value)(db)
                } written: {
                    events.withLock { $0.append("written \(value)") }
                } after: {
                    events.withLock { $0.append("after \(value)") }
                }
            }
            let first = handingOn(1)
            // Written before `submit` returned, on this thread.
            #expect(events.withLock { $0 } == ["written 1"])
            try first.waitBlocking()
            #expect(ranOn.withLock { $0[1] }.map { pthread_equal($0, caller) != 0 } == true)
            #expect(events.withLock { $0 } == ["written 1", "after 1"])

            // Behind a queued job under way, it is queued too and keeps its place.
            let tickets = try asOneBatch(committer) {
                [committer.submit(Self.insert(2)) { events.withLock { $0.append("after 2") } }, handingOn(3)]
            }
            for ticket in tickets { try ticket.waitBlocking() }
            #expect(ranOn.withLock { $0[3] }.map { pthread_equal($0, caller) != 0 } == false)
            #expect(events.withLock { $0 } == ["written 1", "after 1", "written 3", "after 2", "after 3"])
            #expect(try values(database) == [1, 2, 3])
        }
    }
}
