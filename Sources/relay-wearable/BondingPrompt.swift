import Synchronization
import WearableUI

/// BlueZ's bonding passkey on the wearable's pairing screen, waiting for Select or Back.
///
/// The Bluetooth agent asks from its own task (``ask(passkey:)``); the runtime's thread answers
/// when the person presses a key (``answer(_:)``). One request at a time: bluetoothd bonds with one
/// device at a time, and a second request while one is on the screen is refused.
final class BondingPrompt: Sendable {
    private struct Waiting {
        let id: Int
        let passkey: String
        let continuation: CheckedContinuation<Bool, Never>
    }

    private let waiting = Mutex<Waiting?>(nil)
    private let nextID = Atomic<Int>(0)
    /// Hands UI events to the runtime's thread (its mailbox).
    private let present: @Sendable ([UIEvent]) -> Void

    init(present: @escaping @Sendable ([UIEvent]) -> Void) {
        self.present = present
    }

    /// The passkey on the screen now, while it waits for an answer.
    var passkey: String? { waiting.withLock { $0?.passkey } }

    /// Shows `passkey` and waits for the person's answer: `true` for Select on Confirm.
    /// Answers `false` at once when another request is on the screen, and when the task is
    /// cancelled (BlueZ's `Cancel`), which also takes the passkey off the screen.
    func ask(passkey: String) async -> Bool {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock: a cancellation before this point finds nothing to end.
                let shown = waiting.withLock { waiting -> Bool in
                    guard waiting == nil, !Task.isCancelled else { return false }
                    waiting = Waiting(id: id, passkey: passkey, continuation: continuation)
                    return true
                }
                if shown {
                    present([.bluetoothPasskey(passkey)])
                } else {
                    continuation.resume(returning: false)
                }
            }
        } onCancel: {
            guard let request = take(id) else { return }
            request.continuation.resume(returning: false)
            present([.pairingFinished])
        }
    }

    /// The person's answer on the pairing screen that showed `shown`; `false` when it was not
    /// this prompt's passkey (Relay's own code took the screen meanwhile, say): a Select meant
    /// for Relay's code must never allow a Bluetooth bond. The caller takes the screen down.
    func answer(_ accepted: Bool, shown: String) -> Bool {
        let request = waiting.withLock { waiting -> Waiting? in
            guard let current = waiting, current.passkey == shown else { return nil }
            waiting = nil
            return current
        }
        guard let request else { return false }
        request.continuation.resume(returning: accepted)
        return true
    }

    /// Removes the waiting request (`id`'s, or whichever waits), to be answered by the caller.
    private func take(_ id: Int?) -> Waiting? {
        waiting.withLock { waiting in
            guard let current = waiting, id == nil || current.id == id else { return nil }
            waiting = nil
            return current
        }
    }
}
