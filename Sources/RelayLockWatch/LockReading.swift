/// One lock source's new reading, as the watchers emit it.
///
/// `nil` means the source is absent or cannot say (no logind, no active session, a screensaver
/// that is not running); the phone's `LockState` ignores such sources.
public enum LockReading: Sendable, Hashable {
    /// logind's `LockedHint` of the active session on the watched seat.
    case logind(locked: Bool?)
    /// A screensaver's `GetActive` answer or `ActiveChanged` signal, by its bus name.
    case screenSaver(name: String, active: Bool?)
}
