/// One lock source's new reading, as the watchers emit it.
///
/// `nil` means the source cannot say (logind or the system bus gone, a screensaver that is not
/// running): the phone's `LockState` keeps what it said last, if anything.
public enum LockReading: Sendable, Hashable {
    /// What logind says of the watched seat's active session.
    case logind(SeatSession?)
    /// A screensaver's `GetActive` answer or `ActiveChanged` signal, by its bus name.
    case screenSaver(name: String, active: Bool?)
}

/// The active session of a logind seat, as far as locking goes.
public enum SeatSession: Sendable, Hashable {
    /// A session whose screen can lock is active, and this is its `LockedHint`.
    case lockable(locked: Bool)
    /// No one looks at a screen that locks: no session is active on the seat, the active one is
    /// a display manager's login screen (`Class` `greeter`: no one is logged in), or it is a
    /// text console (`Type` `tty`) that nothing has marked locked. A text console has no lock
    /// screen, so its `LockedHint` stays false while no one is there.
    case noScreen
}
