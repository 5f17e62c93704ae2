import CRelayShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The way into a thread that sleeps in `poll`: a locked FIFO plus an eventfd that wakes it.
///
/// Items are taken in submission order. After resetting the wake-up (`acknowledgeWakeUp`)
/// the owner takes before it sleeps again: only the first of the items waiting writes to the
/// eventfd, so items left after a reset would not wake it. Once the owner closes the mailbox,
/// submission fails and the submitter handles that itself; items accepted before are always handed to the
/// owner (by `take` or `close`), so nothing accepted is lost.
public final class Mailbox<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var accepting = true
    }

    private let state = Mutex(State())
    /// Readable whenever items are waiting. Written only under the lock while accepting, and
    /// closed by the owner only after `close()` stopped accepting, so a write never hits a
    /// closed descriptor.
    public let wakeDescriptor: Int32

    /// Creates an empty mailbox with its eventfd.
    public init() throws(SystemError) {
        wakeDescriptor = try SystemError.retrying("eventfd") { relay_dbus_eventfd() }
    }

    /// Queues `item` for the owner; returns `false` if the mailbox is closed.
    @discardableResult
    public func submit(_ item: Item) -> Bool {
        state.withLock { state in
            guard state.accepting else { return false }
            state.items.append(item)
            // Only the first item wakes the owner (a syscall saved for each later one): the owner
            // takes every item at once, after resetting the counter, so later ones go with it.
            if state.items.count == 1 {
                var increment: UInt64 = 1
                _ = write(wakeDescriptor, &increment, MemoryLayout<UInt64>.size)
            }
            return true
        }
    }

    /// Takes every queued item. Owner only.
    public func take() -> [Item] {
        state.withLock { state in
            defer { state.items.removeAll() }
            return state.items
        }
    }

    /// Resets the wake-up counter after `poll` reported it readable. Owner only.
    public func acknowledgeWakeUp() {
        var counter: UInt64 = 0
        _ = read(wakeDescriptor, &counter, MemoryLayout<UInt64>.size)
    }

    /// Stops accepting and returns what is still queued, which the owner must handle. Owner only.
    public func close() -> [Item] {
        state.withLock { state in
            state.accepting = false
            defer { state.items.removeAll() }
            return state.items
        }
    }

    /// Releases the eventfd; call once, after `close()`, when the owner is done.
    public func releaseDescriptor() {
        _ = Glibc.close(wakeDescriptor)
    }
}
