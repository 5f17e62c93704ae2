import Dispatch
import PhoneAgent
import RelayFreedesktop
import Synchronization

/// Where `Notify` calls with an image are taken in: off the bus thread, so that reading and
/// reducing a large image (a second for 40 megapixels) does not hold up every other client.
///
/// Images are taken in one at a time, in order. A sender's calls stay in the order it sent them
/// (a `CloseNotification` or an update must not overtake the post it is about): while one of
/// its calls waits here, its next ones queue behind it (``inOrder(after:_:refuse:)``). At most
/// ``capacity`` calls and ``byteBudget`` bytes of `image-data` wait; beyond that the bus thread
/// waits for a place, which slows a flood of images down as reading them on the bus thread did,
/// without holding them all in memory. ``stop()`` refuses the calls not yet started, so that a
/// stopping agent answers every call it took (the bus connection's close waits for those answers).
final class ImageIntake: Sendable {
    /// The most calls waiting to be taken in.
    static let capacity = 16
    /// The most bytes of `image-data` waiting (one call may bring more, alone).
    static let byteBudget = 64 << 20

    private struct Waiting {
        /// Calls waiting here, by sender.
        var calls: [String: Int] = [:]
        var bytes = 0
        var stopped = false
    }

    private let queue = DispatchQueue(label: "relay-phone images")
    private let places = DispatchSemaphore(value: ImageIntake.capacity)
    private let waiting = Mutex(Waiting())
    private let ingest: AttachmentIngest

    init(ingest: AttachmentIngest) {
        self.ingest = ingest
    }

    /// Returns `call` for the caller to deliver at once when it has no image and nothing of its
    /// sender waits here; otherwise queues it, returns `nil`, and runs `deliver` with it, its
    /// images taken in, on the image queue in turn. `refuse` answers a call that was still
    /// waiting when the agent began to stop.
    func handle(
        _ call: PostedNotification, from sender: String, deliver: @escaping @Sendable (PostedNotification) -> Void,
        refuse: @escaping @Sendable () -> Void
    ) -> PostedNotification? {
        let hasImage = call.hints.imageData != nil || !(call.hints.imagePath ?? "").isEmpty
        // Most calls: no image and nothing of the sender's waiting, so delivered by the caller
        // without a closure to carry the call (only the bus thread queues, so the sender's calls
        // can only have finished meanwhile).
        guard hasImage || waiting.withLock({ $0.calls[sender] != nil }) else { return call }
        let bytes = call.hints.imageData?.data.count ?? 0
        enqueue(from: sender, bytes: bytes, always: hasImage, refuse: refuse) { [ingest] in
            deliver(hasImage ? ingest.takeImages(of: call) : call)
        }
        return nil
    }

    /// Runs `work` (another call of `sender`'s) now, or behind the sender's calls that wait here.
    func inOrder(after sender: String, _ work: @escaping @Sendable () -> Void, refuse: @escaping @Sendable () -> Void) {
        enqueue(from: sender, bytes: 0, always: false, refuse: refuse, work)
    }

    /// Refuses every call not started yet, and returns once the one being taken in has been
    /// delivered (its reply is then owed to the bus connection, whose close waits for it).
    func stop() {
        waiting.withLock { $0.stopped = true }
        queue.sync {}
    }

    private func enqueue(
        from sender: String, bytes: Int, always: Bool, refuse: @escaping @Sendable () -> Void,
        _ work: @escaping @Sendable () -> Void
    ) {
        let (queued, overBudget) = waiting.withLock { waiting -> (Bool, Bool) in
            guard always || waiting.calls[sender] != nil else { return (false, false) }
            return (true, waiting.bytes > 0 && waiting.bytes + bytes > Self.byteBudget)
        }
        guard queued else { return work() }
        // Only the bus thread queues, so nothing is added between the wait and the count.
        if overBudget { queue.sync {} }
        places.wait()
        waiting.withLock { waiting in
            waiting.calls[sender, default: 0] += 1
            waiting.bytes += bytes
        }
        queue.async { [self] in
            let stopped = waiting.withLock { $0.stopped }
            if stopped { refuse() } else { work() }
            waiting.withLock { waiting in
                let left = (waiting.calls[sender] ?? 1) - 1
                waiting.calls[sender] = left > 0 ? left : nil
                waiting.bytes -= bytes
            }
            places.signal()
        }
    }
}
