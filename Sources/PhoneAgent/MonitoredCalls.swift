public import RelayFreedesktop

/// Calls to another notification server seen by a bus monitor, waiting for that server's answer,
/// as a value: relay-phone in monitor mode learns a notification's id only from the reply to its
/// `Notify`, so each call is kept until the reply that names it arrives.
///
/// A reply names its call by the call's serial, and serials are counted per connection, so a call
/// is keyed by the caller's unique name and its serial; the reply's destination is that caller.
/// Calls that are never answered (the caller's own timeout, a server that died, an error the bus
/// itself sent) would stay forever, so at most ``capacity`` are kept and the oldest goes first.
public struct MonitoredCalls: Sendable {
    /// What was called: the method and the arguments the monitor needs once it is answered.
    public enum Call: Sendable, Hashable {
        /// `Notify`, decoded; the reply carries the id.
        case notify(PostedNotification)
        /// `CloseNotification(id)`; an empty reply means the server accepted it.
        case close(id: UInt32)
    }

    /// A call and who made it.
    public struct Pending: Sendable, Hashable {
        /// The call.
        public var call: Call
        /// The caller's unique bus name.
        public var caller: String
        /// The call's serial on the caller's connection.
        public var serial: UInt32
        /// When the monitor saw the call, among all it saw (increasing).
        public var order: UInt64 = 0
    }

    private struct Key: Hashable {
        var caller: String
        var serial: UInt32
    }

    /// The most calls kept waiting.
    public let capacity: Int
    private var waiting: [Key: (pending: Pending, order: UInt64)] = [:]
    private var nextOrder: UInt64 = 0
    /// Ids the server closed while a `Notify` waited for its answer, newest last (at most
    /// ``closedEarlyCapacity``), each with the order of the next call then: a server may send
    /// `NotificationClosed` before its reply to the `Notify` (a transient notification it drops
    /// at once, new or replacing), and the reply must then not bring back a notification that is
    /// already gone. A close can be about a call only if it came after the call.
    private var closedEarly: [(id: UInt32, after: UInt64)] = []
    /// How many of the waiting calls are `Notify`.
    private var waitingNotifies = 0
    /// The most ids kept in ``closedBeforeAnswer(_:)``.
    public static let closedEarlyCapacity = 64

    /// An empty set that keeps at most `capacity` (at least 1) calls waiting.
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// How many calls are waiting for their answer.
    public var count: Int { waiting.count }

    /// Keeps a call until its answer. A serial still waiting from the same caller (its serials
    /// wrapped around) is replaced: unique names are never reused, so nobody else can send it.
    /// - Returns: The call dropped to stay within ``capacity``, if any, so the caller can log it.
    @discardableResult
    public mutating func called(_ call: Call, serial: UInt32, caller: String) -> Pending? {
        let key = Key(caller: caller, serial: serial)
        var dropped: Pending?
        if waiting[key] == nil, waiting.count >= capacity,
            let oldest = waiting.min(by: { $0.value.order < $1.value.order })
        {
            dropped = forget(oldest.key)
        }
        _ = forget(key)
        waiting[key] = (Pending(call: call, caller: caller, serial: serial, order: nextOrder), nextOrder)
        if case .notify = call { waitingNotifies += 1 }
        nextOrder += 1
        return dropped
    }

    /// Stops waiting for the call at `key`, if any.
    private mutating func forget(_ key: Key) -> Pending? {
        guard let pending = waiting.removeValue(forKey: key)?.pending else { return nil }
        if case .notify = pending.call { waitingNotifies -= 1 }
        return pending
    }

    /// The call a reply (a method return or an error) answers, which stops waiting; `nil` for a
    /// reply to a call the monitor did not keep (another method, or one dropped or never seen).
    /// - Parameters:
    ///   - replySerial: The reply's `reply_serial`.
    ///   - caller: The reply's destination: the unique name of the connection that called.
    public mutating func answered(replySerial: UInt32, caller: String) -> Pending? {
        forget(Key(caller: caller, serial: replySerial))
    }

    /// The server closed `id`: a reply to a waiting `Notify` naming it may still be on its way.
    public mutating func closedBeforeAnswer(_ id: UInt32) {
        guard waitingNotifies > 0 else { return }
        // Closes that came before every waiting Notify started cannot be about any of them.
        let oldest = waiting.values.lazy.filter { if case .notify = $0.pending.call { true } else { false } }.map(\.order).min() ?? nextOrder
        closedEarly.removeAll { $0.after <= oldest }
        closedEarly.append((id, nextOrder))
        if closedEarly.count > Self.closedEarlyCapacity { closedEarly.removeFirst() }
    }

    /// Whether `id`, named by the reply to `call` (a `Notify`), was closed after the call was
    /// made (and so must not be kept); that close is forgotten either way.
    public mutating func wasClosed(_ id: UInt32, whileAnswering call: Pending) -> Bool {
        guard let index = closedEarly.lastIndex(where: { $0.id == id && $0.after > call.order }) else { return false }
        closedEarly.remove(at: index)
        return true
    }

    /// Forgets every waiting call, when the server they were sent to is gone.
    /// - Returns: How many were forgotten.
    @discardableResult
    public mutating func removeAll() -> Int {
        defer {
            waiting.removeAll()
            waitingNotifies = 0
            closedEarly.removeAll()
        }
        return waiting.count
    }
}
