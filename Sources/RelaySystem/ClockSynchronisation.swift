import CRelayShim
import Glibc

/// Whether the kernel's clock is synchronised to a time source (NTP's state, `ntp_adjtime(2)`).
public enum ClockSynchronisation {
    /// Synchronised, with the kernel's estimated error in microseconds; not synchronised; or the
    /// state could not be read.
    public enum State: Sendable, Equatable {
        case synchronised(estimatedErrorMicroseconds: Int)
        case unsynchronised
        case unknown(SystemError)
    }

    /// The kernel's current state.
    public static var current: State {
        var estimated = 0
        switch relay_clock_synchronised(&estimated) {
        case 1: return .synchronised(estimatedErrorMicroseconds: estimated)
        case 0: return .unsynchronised
        default: return .unknown(SystemError(call: "ntp_adjtime", code: errno))
        }
    }
}

/// Sets the system's wall clock (`clock_settime(CLOCK_REALTIME)`), which needs the
/// `CAP_SYS_TIME` capability.
public enum SystemClockSetting {
    /// Sets the clock to `secondsSince1970` (UTC); EPERM without the capability.
    public static func set(secondsSince1970: Double) throws(SystemError) {
        let whole = secondsSince1970.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((secondsSince1970 - whole) * 1_000_000_000))
        _ = try SystemError.retrying("clock_settime(CLOCK_REALTIME)") { clock_settime(CLOCK_REALTIME, &time) }
    }
}
