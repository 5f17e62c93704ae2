import Foundation
import Synchronization
import WearableAgent

/// A wall clock the test moves: sleepers wake when it passes their date.
final class ManualClock: WearableClock {
    private struct State {
        var now: Date
        var sleepers: [Int: (date: Date, continuation: CheckedContinuation<Void, Never>)] = [:]
        var next = 0
    }

    private let state: Mutex<State>

    init(_ start: Date) {
        state = Mutex(State(now: start))
    }

    func now() -> Date { state.withLock { $0.now } }

    func sleep(until date: Date) async {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let wakeNow = state.withLock { state -> Bool in
                    if date <= state.now || Task.isCancelled { return true }
                    state.sleepers[id] = (date, continuation)
                    return false
                }
                if wakeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Sets the time (forwards or back) and wakes whoever's date has come.
    func set(_ date: Date) {
        let due = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.now = date
            let due = state.sleepers.filter { $0.value.date <= date }
            for key in due.keys { state.sleepers.removeValue(forKey: key) }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
