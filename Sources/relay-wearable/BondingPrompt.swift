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
        let question: Question
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// What the screen asks.
    enum Question: Sendable, Hashable {
        /// Whether the phone shows the same passkey.
        case passkey(String)
        /// Whether to bond with the device at this address, which has no passkey to compare.
        case device(String)

        /// What the pairing screen shows for it.
        var shown: String {
            switch self {
            case .passkey(let passkey): passkey
            case .device(let address): address
            }
        }
    }

    private let waiting = Mutex<Waiting?>(nil)
    private let nextID = Atomic<Int>(0)
    /// Hands UI events to the runtime's thread (its mailbox).
    private let present: @Sendable ([UIEvent]) -> Void

    init(present: @escaping @Sendable ([UIEvent]) -> Void) {
        self.present = present
    }

    /// The question on the screen now, while it waits for an answer.
    var question: Question? { waiting.withLock { $0?.question } }

    /// Shows the question and waits for the person's answer: `true` for Select on Confirm.
    /// Answers `false` at once when another request is on the screen, and when the task is
    /// cancelled (BlueZ's `Cancel`), which also takes the question off the screen.
    func ask(_ question: Question) async -> Bool {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock: a cancellation before this point finds nothing to end.
                let shown = waiting.withLock { waiting -> Bool in
                    guard waiting == nil, !Task.isCancelled else { return false }
                    waiting = Waiting(id: id, question: question, continuation: continuation)
                    return true
                }
                if shown {
                    switch question {
                    case .passkey(let passkey): present([.bluetoothPasskey(passkey)])
                    case .device(let address): present([.bluetoothDevice(address)])
                    }
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
    /// this prompt's question (Relay's own code took the screen meanwhile, say): a Select meant
    /// for Relay's code must never allow a Bluetooth bond. The caller takes the screen down.
    func answer(_ accepted: Bool, shown: String) -> Bool {
        let request = waiting.withLock { waiting -> Waiting? in
            guard let current = waiting, current.question.shown == shown else { return nil }
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
