import Foundation
import Synchronization

/// One task that sleeps until the earliest pending fire date, then hands over to `fire`, which
/// delivers what is due and plans the next wake-up. No polling: the plan is replaced whenever the
/// pending requests change (`plan` is called under the centre's lock, so plans arrive in order).
///
/// The sleep is measured on the continuous clock from the wall-clock distance at planning time, so
/// a step of the wall clock is noticed at the next wake-up, which fires only what is due by then
/// and plans again.
final class PendingScheduler: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let fire: @Sendable (PendingScheduler) -> Void

    /// `fire` runs on the scheduler's task when the planned date comes.
    init(fire: @escaping @Sendable (PendingScheduler) -> Void) {
        self.fire = fire
    }

    /// Replaces the plan: wake at `date`, or never when it is `nil`.
    func plan(_ date: Date?) {
        task.withLock { task in
            task?.cancel()
            task = date.map { date in
                Task { [self] in
                    let delay = date.timeIntervalSinceNow
                    // Cancelled (planned anew meanwhile): the sleep throws and the newer plan holds.
                    if delay > 0, (try? await Task.sleep(for: .seconds(delay))) == nil { return }
                    fire(self)
                }
            }
        }
    }

    /// Cancels the plan, before the agent exits.
    func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }
}
