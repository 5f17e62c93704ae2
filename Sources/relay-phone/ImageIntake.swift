import Dispatch
import PhoneAgent
import RelayFreedesktop
import Synchronization

/// Where `Notify` calls with an image are taken in: off the bus thread, so that reading and
/// reducing a large image (a second for 40 megapixels) does not hold up every other client.
///
/// Images are taken in one at a time, in order. A sender's calls stay in the order it sent them
/// (an update must not overtake the post it updates): while one of its calls waits here, its
/// next ones, with an image or not, queue behind it. At most ``capacity`` calls wait; beyond
/// that the bus thread waits for a place, which slows a flood of images down as reading them
/// on the bus thread did, without holding them all in memory.
final class ImageIntake: Sendable {
    /// The most calls waiting to be taken in.
    static let capacity = 16

    private let queue = DispatchQueue(label: "relay-phone images")
    private let places = DispatchSemaphore(value: ImageIntake.capacity)
    /// Calls waiting here, by sender.
    private let waiting = Mutex<[String: Int]>([:])
    private let ingest: AttachmentIngest

    init(ingest: AttachmentIngest) {
        self.ingest = ingest
    }

    /// Runs `deliver` with `call`, its images taken in: on this thread at once when it has none
    /// and nothing of its sender waits here, otherwise on the image queue in turn.
    func handle(_ call: NotifyCall, from sender: String, deliver: @escaping @Sendable (NotifyCall) -> Void) {
        let hasImage = call.hints.imageData != nil || !(call.hints.imagePath ?? "").isEmpty
        let queued = waiting.withLock { waiting -> Bool in
            guard hasImage || waiting[sender] != nil else { return false }
            waiting[sender, default: 0] += 1
            return true
        }
        guard queued else { return deliver(call) }
        places.wait()
        queue.async { [self] in
            deliver(hasImage ? ingest.takeImages(of: call) : call)
            waiting.withLock { waiting in
                let left = (waiting[sender] ?? 1) - 1
                waiting[sender] = left > 0 ? left : nil
            }
            places.signal()
        }
    }
}
