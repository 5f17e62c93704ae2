/// One `struct input_event` from an evdev device.
public struct InputEvent: Hashable, Sendable {
    /// The kernel's timestamp: seconds.
    public var seconds: Int
    /// The kernel's timestamp: microseconds within the second.
    public var microseconds: Int
    /// `EV_SYN`, `EV_KEY`, …
    public var type: UInt16
    /// For `EV_KEY`, the key code (`KEY_UP` = 103, …).
    public var code: UInt16
    /// For `EV_KEY`: 0 release, 1 press, 2 autorepeat.
    public var value: Int32

    /// Creates an event.
    public init(seconds: Int = 0, microseconds: Int = 0, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// `EV_SYN`: a report boundary.
    public static let synchronization: UInt16 = 0x00
    /// `EV_KEY`: a key or button.
    public static let key: UInt16 = 0x01
    /// `SYN_REPORT`: the end of one report.
    public static let synReport: UInt16 = 0
    /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost.
    public static let synDropped: UInt16 = 3
}
