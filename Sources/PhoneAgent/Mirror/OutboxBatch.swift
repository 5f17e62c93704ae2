public import Foundation
import Synchronization

/// Signals for the apps to store with a change (`SignalOutboxTable`), on the bus they are for,
/// and where the commit put them: the owner forgets exactly those once it has emitted them.
public final class OutboxBatch: Sendable {
    /// The signals, as the owner encoded them.
    public let signals: [Data]
    /// The id of the bus they are for.
    public let bus: String
    private let last = Mutex<Int64?>(nil)

    /// Signals to store for `bus`.
    public init(signals: [Data], bus: String) {
        self.signals = signals
        self.bus = bus
    }

    /// The last one's place in the outbox once the change is committed; `nil` before.
    public var storedThrough: Int64? { last.withLock { $0 } }

    func stored(through seq: Int64?) {
        last.withLock { $0 = seq }
    }
}
