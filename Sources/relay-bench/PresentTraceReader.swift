import Foundation
import Glibc
import RelayTestSupport
import Synchronization

/// Reads relay-wearable's present trace (`RELAY_PRESENT_TRACE`, PresentTrace.swift) from a FIFO:
/// one line `MONOTONIC_NANOSECONDS<TAB>TITLE` per notification, written once the frame that
/// carries it is in the framebuffer. Each title's first presentation is kept, and callers can
/// wait for titles to appear.
///
/// The FIFO is opened read-write, which on Linux neither blocks (relay-wearable opens its end
/// when it starts) nor reports end-of-file when the writer goes away; a thread drains it so
/// the wearable never blocks on a full pipe.
final class PresentTraceReader: Sendable {
    /// The FIFO's path, for the wearable's environment.
    let path: String

    private struct Waiter {
        var title: String
        var continuation: CheckedContinuation<Int64?, Never>
    }

    private struct State {
        /// Each title's first presentation, in `CLOCK_MONOTONIC` nanoseconds.
        var presented: [String: Int64] = [:]
        /// Presentations of a title after its first (a redraw that carried it again).
        var repeats = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        /// Waiters whose deadline passed before they were registered.
        var expired: Set<Int> = []
    }

    private let state = Mutex(State())
    private let stopped = Atomic<Bool>(false)
    /// Opens when the draining thread has stopped reading.
    private let finished = Gate()
    private let descriptor: Int32

    /// Creates the FIFO at `path` (mode 0600) and starts draining it.
    init(path: String) throws {
        guard mkfifo(path, 0o600) == 0 else {
            throw BenchError("could not create the trace FIFO \(path): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw BenchError("could not open the trace FIFO \(path): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in drain() }
    }

    /// When `title` was first presented, if it was.
    func presentation(of title: String) -> Int64? {
        state.withLock { $0.presented[title] }
    }

    /// How many lines repeated a title already presented.
    var repeatedPresentations: Int { state.withLock { $0.repeats } }

    /// Waits until `title` is presented, at most until `deadline`; `nil` if it was not by then.
    func waitForPresentation(of title: String, until deadline: ContinuousClock.Instant) async -> Int64? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timeout = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            let waiter = state.withLock { state in
                let waiter = state.waiters.removeValue(forKey: id)
                // Not registered yet: registration sees this and gives up at once.
                if waiter == nil { state.expired.insert(id) }
                return waiter
            }
            waiter?.continuation.resume(returning: nil)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { continuation in
            let (known, expired) = state.withLock { state -> (Int64?, Bool) in
                if let time = state.presented[title] { return (time, false) }
                if state.expired.remove(id) != nil { return (nil, true) }
                state.waiters[id] = Waiter(title: title, continuation: continuation)
                return (nil, false)
            }
            if known != nil || expired { continuation.resume(returning: known) }
        }
    }

    /// Waits until every title is presented or `deadline` passes; returns those that were not.
    func waitForPresentations(of titles: [String], until deadline: ContinuousClock.Instant) async -> [String] {
        var missing: [String] = []
        for title in titles where await waitForPresentation(of: title, until: deadline) == nil {
            missing.append(title)
        }
        return missing
    }

    /// Stops draining and closes the FIFO (after the wearable has stopped), then removes it.
    func stop() async {
        stopped.store(true, ordering: .releasing)
        // The drain thread polls with a timeout, so it sees the flag within one interval.
        await finished.wait()
        close(descriptor)
        unlink(path)
    }

    private func drain() {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopped.load(ordering: .acquiring) {
            var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // A short timeout only so that `stop` is noticed; lines are read as soon as they come.
            guard poll(&polled, 1, 100) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            pending += buffer[..<count]
            var lines: [String] = []
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[start..<newline], as: UTF8.self))
                start = newline + 1
            }
            pending.removeSubrange(..<start)
            record(lines)
        }
        finished.open()
    }

    private func record(_ lines: [String]) {
        var woken: [(CheckedContinuation<Int64?, Never>, Int64)] = []
        state.withLock { state in
            for line in lines {
                guard let tab = line.firstIndex(of: "\t"), let time = Int64(line[..<tab]) else { continue }
                let title = String(line[line.index(after: tab)...])
                if state.presented[title] != nil {
                    state.repeats += 1
                    continue
                }
                state.presented[title] = time
            }
            for (id, waiter) in state.waiters {
                guard let time = state.presented[waiter.title] else { continue }
                state.waiters[id] = nil
                woken.append((waiter.continuation, time))
            }
        }
        for (continuation, time) in woken { continuation.resume(returning: time) }
    }
}

/// A benchmark's failure, said for people: what happened and what to do.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
