import Synchronization

/// A callback that may be set from one thread and called from others.
///
/// The closure sits in a struct behind the lock, not in the lock itself: read back from a
/// `Mutex` of a function type with `withLock { $0 }`, Swift (6.3) wraps the stored closure in
/// one more reabstraction thunk at every read, so each call costs more than the last until
/// the stack overflows. A struct's field keeps its own abstraction and is copied as it is.
public final class LockedCallback<Argument>: Sendable {
    private struct Stored: Sendable {
        let call: @Sendable (Argument) -> Void
    }

    private let stored = Mutex<Stored?>(nil)

    /// No callback yet.
    public init() {}

    /// Sets the callback, replacing any before it; `nil` removes it.
    public func set(_ callback: (@Sendable (Argument) -> Void)?) {
        stored.withLock { $0 = callback.map(Stored.init) }
    }

    /// The callback, to call outside the lock; `nil` if none is set.
    public var current: (@Sendable (Argument) -> Void)? {
        stored.withLock { $0 }?.call
    }
}
