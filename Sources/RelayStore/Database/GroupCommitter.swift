import Foundation
public import GRDB
import RelaySystem
import Synchronization

/// Commits many small writes with one transaction and one sync: callers queue their work and
/// wait for its commit; a thread of its own takes everything queued, runs it in one
/// transaction (each piece in a savepoint, so one failure does not undo the others), syncs
/// once, then runs each piece's `after` in queue order and releases its waiters.
///
/// This keeps "persist before acknowledging" — nobody is answered before their write is on
/// disk — while the cost of `fdatasync` is paid per batch instead of per write.
///
/// A job may also pass work to others while the sync is under way (`written`): that runs once
/// the batch is committed but before it is synced, for a copy that may go ahead of the
/// durable one, such as log entries for the wearable. Whoever uses it must cope with a power
/// cut losing what was handed on (relay-phone's `RunRecord` check at start-up). Such a job,
/// submitted while the committer is idle, is written on the submitter's thread at once.
public final class GroupCommitter: Sendable {
    private struct Job: Sendable {
        let work: @Sendable (Database) throws -> Void
        let written: (@Sendable () -> Void)?
        let after: @Sendable () -> Void
        let ticket: CommitTicket
        /// Whoever queued it has already moved its memory past it: any failure goes to the
        /// failure handler, not only the storage's.
        var mustLand = false
    }

    /// Jobs whose transaction has run, with each one's error, waiting for the sync (when
    /// `synced` is false) and their `after`.
    private struct Committed: Sendable {
        let jobs: [Job]
        let failures: [(any Error)?]
        let synced: Bool
    }

    private struct Queue: Sendable {
        var jobs: [Job] = []
        /// Committed on a submitter's thread, in queue order; this thread finishes them.
        var committed: [Committed] = []
        /// A transaction of queued jobs is under way, here or on a submitter's thread: later
        /// jobs wait for it, so that commits keep the queue's order.
        var writing = false
        /// This thread has work in hand (it is not waiting): jobs then queue, so that they
        /// share its next transaction and sync rather than each paying for one.
        var busy = false
        var stopped = false
    }

    private let database: RelayDatabase
    private let queue = Mutex(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let failureHandler = LockedCallback<any Error>()

    /// Starts the committer's thread.
    public init(database: RelayDatabase, name: String) {
        self.database = database
        let thread = Thread { [self] in
            ThreadName.setCurrent(name)
            run()
        }
        thread.start()
    }

    /// Queues `work` for the next transaction. `after` runs once it is committed and synced, in
    /// the order things were queued, and the ticket completes then; neither for a job that failed.
    /// `mustLand`: the caller's memory already went past this write and cannot go back, so its
    /// failure for any reason, not only the storage's, goes to ``whenStorageFails(_:)``'s handler.
    @discardableResult
    public func submit(
        mustLand: Bool = false, _ work: @escaping @Sendable (Database) throws -> Void,
        after: @escaping @Sendable () -> Void = {}
    ) -> CommitTicket {
        enqueue(Job(work: work, written: nil, after: after, ticket: CommitTicket(), mustLand: mustLand))
    }

    /// The same, with `written` run once the job is committed but before it is synced: for
    /// handing the commit on while the sync is under way. Neither runs for a job that failed.
    ///
    /// When the committer is idle (nothing queued, written or syncing), the transaction runs
    /// at once on the calling thread and `written` right after it there, which spares the wait
    /// for the committer's thread to wake; the sync, `after` and the ticket follow on that
    /// thread as for any job. Otherwise the job is queued and `written` runs there too, in
    /// queue order.
    @discardableResult
    public func submit(
        _ work: @escaping @Sendable (Database) throws -> Void, written: @escaping @Sendable () -> Void,
        after: @escaping @Sendable () -> Void
    ) -> CommitTicket {
        let job = Job(work: work, written: written, after: after, ticket: CommitTicket())
        let direct = queue.withLock { queue -> Bool in
            guard !queue.stopped, !queue.busy, !queue.writing, queue.jobs.isEmpty, queue.committed.isEmpty else {
                return false
            }
            queue.writing = true
            return true
        }
        guard direct else { return enqueue(job) }
        let committed = write([job])
        queue.withLock { queue in
            queue.committed.append(committed)
            queue.writing = false
        }
        wakeUp.signal()
        return job.ticket
    }

    private func enqueue(_ job: Job) -> CommitTicket {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.stopped else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted {
            wakeUp.signal()
        } else {
            job.ticket.complete(CommitterStopped())
        }
        return job.ticket
    }

    /// Runs `handler` on the committer's thread for every job whose commit or sync failed
    /// because the storage did (`StorageFailure`), and for every failure of a job submitted
    /// with `mustLand`, before its ticket completes: for an owner whose memory went ahead of
    /// the job and cannot go back, and so must not go on (relay-phone stops). Any other job
    /// refused for what it held is only its ticket's failure.
    public func whenStorageFails(_ handler: @escaping @Sendable (any Error) -> Void) {
        failureHandler.set(handler)
    }

    /// Commits what is queued, then stops the thread.
    public func stop() {
        queue.withLock { $0.stopped = true }
        wakeUp.signal()
    }

    private func run() {
        while true {
            wakeUp.wait()
            // Everything there is, in order: what submitters committed, then what is queued
            // (once no transaction is under way elsewhere; its end signals again).
            while true {
                let (committed, batch, stopped) = queue.withLock { queue -> ([Committed], [Job], Bool) in
                    defer { queue.committed.removeAll() }
                    let writable = !queue.writing && !queue.jobs.isEmpty
                    queue.busy = writable || !queue.committed.isEmpty
                    guard writable else { return (queue.committed, [], queue.stopped && !queue.writing) }
                    defer { queue.jobs.removeAll() }
                    queue.writing = true
                    return (queue.committed, queue.jobs, false)
                }
                finish(committed)
                if !batch.isEmpty {
                    let written = write(batch)
                    queue.withLock { $0.writing = false }
                    finish([written])
                    continue
                }
                if stopped { return }
                break
            }
        }
    }

    /// Runs a batch's transaction: synced at commit, or, when a job hands its commit on, not
    /// synced, with the `written` hooks run after it.
    private func write(_ batch: [Job]) -> Committed {
        var failures: [(any Error)?] = Array(repeating: nil, count: batch.count)
        let handsOff = batch.contains { $0.written != nil }
        func run(_ db: Database) throws {
            // One job alone needs no savepoint: its failure undoes the transaction, which
            // held nothing else (and is what one call at a time pays for).
            if batch.count == 1 { return try batch[0].work(db) }
            for (index, job) in batch.enumerated() {
                failures[index] = try Self.inSavepoint(db, job.work)
            }
        }
        do {
            if handsOff {
                try database.writeUnsynced(run)
                for (job, failure) in zip(batch, failures) where failure == nil { job.written?() }
            } else {
                try database.write(run)
            }
        } catch {
            failures = Array(repeating: error, count: batch.count)
        }
        return Committed(jobs: batch, failures: failures, synced: !handsOff)
    }

    /// Syncs what was committed without a sync (once for all), then runs each job's `after`
    /// and completes its ticket, in order.
    private func finish(_ committed: [Committed]) {
        var syncFailure: (any Error)?
        if committed.contains(where: { !$0.synced }) {
            do { try database.syncLog() } catch { syncFailure = error }
        }
        for part in committed {
            for (job, failure) in zip(part.jobs, part.failures) {
                let failure = failure ?? (part.synced ? nil : syncFailure)
                if let failure {
                    if job.mustLand || StorageFailure.isStorageFailure(failure) { failureHandler.current?(failure) }
                } else {
                    job.after()
                }
                job.ticket.complete(failure)
            }
        }
    }
}

extension GroupCommitter {
    /// Runs `work` in a savepoint of the batch's transaction and returns its error, its writes
    /// undone; throws only when the transaction itself is lost (SQLite rolled it back).
    ///
    /// GRDB's `inSavepoint` prepares its two statements anew each time; these are prepared
    /// once per connection, which counts when every `Notify` is a job.
    fileprivate static func inSavepoint(_ db: Database, _ work: (Database) throws -> Void) throws -> (any Error)? {
        try db.cachedStatement(sql: "SAVEPOINT relay_job").execute()
        do {
            try work(db)
        } catch {
            try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT relay_job").execute()
            try db.cachedStatement(sql: "RELEASE SAVEPOINT relay_job").execute()
            return error
        }
        try db.cachedStatement(sql: "RELEASE SAVEPOINT relay_job").execute()
        return nil
    }
}

/// The promise of one queued write: wait for it to be committed (or to have failed).
public final class CommitTicket: Sendable {
    private struct State: Sendable {
        var done = false
        var failure: (any Error)?
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var callbacks: [@Sendable ((any Error)?) -> Void] = []
    }

    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    init() {}

    func complete(_ failure: (any Error)?) {
        let (waiters, callbacks) = state.withLock { state in
            state.done = true
            state.failure = failure
            defer {
                state.waiters.removeAll()
                state.callbacks.removeAll()
            }
            return (state.waiters, state.callbacks)
        }
        for callback in callbacks { callback(failure) }
        for waiter in waiters {
            if let failure { waiter.resume(throwing: failure) } else { waiter.resume() }
        }
        finished.signal()
    }

    /// Whether the job has been committed (and synced), or has failed.
    public var isDone: Bool { state.withLock { $0.done } }

    /// Runs `body` once the write is committed, with its error if it failed: on the committer's
    /// thread right after the commit (before later writes' `after`), or at once if that was
    /// already. For answers that need no task to wait: `body` must be quick and must not wait
    /// for another commit.
    public func whenCommitted(_ body: @escaping @Sendable ((any Error)?) -> Void) {
        let outcome = state.withLock { state -> (any Error)?? in
            guard state.done else {
                state.callbacks.append(body)
                return nil
            }
            return .some(state.failure)
        }
        if let outcome { body(outcome) }
    }

    /// Returns once committed; throws the write's error.
    public func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> (any Error)?? in
                guard state.done else {
                    state.waiters.append(continuation)
                    return nil
                }
                return .some(state.failure)
            }
            guard let outcome else { return }
            if let failure = outcome { continuation.resume(throwing: failure) } else { continuation.resume() }
        }
    }

    /// The same for a thread that may block (never the committer's own).
    public func waitBlocking() throws {
        finished.wait()
        finished.signal()  // Let any other blocking waiter through as well.
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }
}

/// The committer was stopped before the write was queued.
public struct CommitterStopped: Error, CustomStringConvertible {
    /// What happened.
    public var description: String { "the database writer has stopped (the agent is shutting down)" }
}
