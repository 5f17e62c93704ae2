/// The sending half of one direction's acknowledged log.
///
/// The owner persists each entry under its sequence number before handing it here; the
/// log sends entries in order, keeps at most `window` of them unacknowledged, drops
/// them when the peer acknowledges, and on a new connection resends from what the peer
/// says it has. Sequence numbers start at 1 and never repeat.
public struct OutboundLog<Body: Sendable>: Sendable {
    /// An entry waiting for acknowledgement.
    public struct Entry: Sendable {
        /// Its position in the log.
        public var seq: UInt64
        /// What it carries.
        public var body: Body

        /// Creates an entry.
        public init(seq: UInt64, body: Body) {
            self.seq = seq
            self.body = body
        }
    }

    /// How many entries may be sent and not yet acknowledged.
    public let window: Int
    /// Every entry up to this one is acknowledged.
    public private(set) var acknowledgedThrough: UInt64
    /// Unacknowledged entries in order; `storage[head]` has sequence number
    /// `acknowledgedThrough + 1`, so an entry is found by arithmetic, not by search.
    private var storage: [Entry]
    private var head = 0
    private var sentThrough: UInt64

    /// A log restored from storage: the unacknowledged entries (consecutive sequence
    /// numbers, as they were persisted) and the acknowledgement cursor.
    public init(window: Int = 64, pending: [Entry] = [], acknowledgedThrough: UInt64 = 0) {
        precondition(window > 0, "the window must hold at least one entry")
        let kept = pending.filter { $0.seq > acknowledgedThrough }.sorted { $0.seq < $1.seq }
        precondition(
            kept.enumerated().allSatisfy { $0.element.seq == acknowledgedThrough + 1 + UInt64($0.offset) },
            "persisted log entries must have consecutive sequence numbers after the acknowledged one")
        self.window = window
        storage = kept
        self.acknowledgedThrough = acknowledgedThrough
        sentThrough = acknowledgedThrough
    }

    /// Entries not yet acknowledged, in order.
    public var pending: ArraySlice<Entry> { storage[head...] }

    /// The sequence number the next entry must have.
    public var nextSeq: UInt64 { acknowledgedThrough + UInt64(storage.count - head) + 1 }

    /// Adds an entry the owner has persisted under `nextSeq`.
    public mutating func append(_ body: Body) -> Entry {
        let entry = Entry(seq: nextSeq, body: body)
        storage.append(entry)
        return entry
    }

    /// A connection came up and the peer said what it has: resend everything after that.
    public mutating func resume(peerReceivedThrough: UInt64) throws(LinkFailure) {
        try acknowledge(through: peerReceivedThrough)
        sentThrough = acknowledgedThrough
    }

    /// The peer acknowledged everything through `seq`.
    public mutating func acknowledge(through seq: UInt64) throws(LinkFailure) {
        guard seq > acknowledgedThrough else { return }
        guard seq < nextSeq else {
            throw .protocolViolation("the peer acknowledged entry \(seq), but the log ends at \(nextSeq - 1)")
        }
        head += Int(seq - acknowledgedThrough)
        acknowledgedThrough = seq
        sentThrough = max(sentThrough, seq)
        if head > 1024, head * 2 > storage.count {
            // Drop acknowledged entries now and then, so the log does not grow without bound.
            storage.removeFirst(head)
            head = 0
        }
    }

    /// The next entry to send now, if the window allows one.
    public mutating func nextToSend() -> Entry? {
        guard sentThrough < nextSeq - 1, sentThrough - acknowledgedThrough < UInt64(window) else { return nil }
        let entry = storage[head + Int(sentThrough - acknowledgedThrough)]
        sentThrough = entry.seq
        return entry
    }

    /// Entries sent but not acknowledged.
    public var inFlightCount: Int { Int(sentThrough - acknowledgedThrough) }
}

/// The receiving half of one direction's acknowledged log.
public struct InboundCursor: Sendable, Hashable {
    /// What to do with an arriving entry.
    public enum Disposition: Sendable, Hashable {
        /// Apply it, persist the effect and the new cursor in one transaction.
        case apply
        /// Already applied before a reconnect or crash: ignore it (it is acknowledged anyway).
        case duplicate
    }

    /// Every entry through this one has been applied and persisted.
    public private(set) var appliedThrough: UInt64
    /// Whether the peer has yet to hear about the latest applied entry.
    public private(set) var acknowledgementDue = false

    /// A cursor restored from storage.
    public init(appliedThrough: UInt64 = 0) {
        self.appliedThrough = appliedThrough
    }

    /// Decides about an entry; a gap means the peer broke the resend rules.
    public func disposition(of seq: UInt64) throws(LinkFailure) -> Disposition {
        if seq <= appliedThrough { return .duplicate }
        guard seq == appliedThrough + 1 else {
            throw .protocolViolation("entry \(seq) arrived after \(appliedThrough): entries were skipped")
        }
        return .apply
    }

    /// Records that the entry was applied and persisted.
    public mutating func applied(_ seq: UInt64) {
        precondition(seq == appliedThrough + 1, "entries are applied in order")
        appliedThrough = seq
        acknowledgementDue = true
    }

    /// An entry arrived again (the peer did not get the acknowledgement): acknowledge anew.
    public mutating func duplicateReceived() {
        acknowledgementDue = true
    }

    /// Notes that an envelope carrying the acknowledgement went out.
    public mutating func acknowledged() {
        acknowledgementDue = false
    }

    /// The peer reset its log (a new epoch): its entries start again from 1.
    public mutating func reset() {
        appliedThrough = 0
        acknowledgementDue = false
    }
}
