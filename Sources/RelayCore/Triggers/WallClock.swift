import Foundation

/// Converts between instants and a time zone's wall clock, with one rule for the hours
/// a daylight-saving change skips or repeats.
///
/// - A wall time in a **gap** (02:30 on a spring-forward night in Berlin) maps to the
///   instant the clock would show it had it not jumped: it is shifted forward by the
///   gap's length (02:30 becomes 03:30 CEST).
/// - A wall time in an **overlap** (01:30 on a fall-back night in New York) maps to its
///   first occurrence (01:30 EDT); the repeated hour does not fire again.
///
/// Instants and wall times are whole seconds since 1970-01-01 00:00 (UTC for instants,
/// local for wall times).
struct WallClock {
    let timeZone: TimeZone

    /// The zone's offset from UTC at an instant, in seconds.
    func offset(at instant: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// What the wall clock shows at an instant.
    func wallTime(at instant: Int) -> Int {
        instant + offset(at: instant)
    }

    /// The instant at which the wall clock shows `wall`, by the gap and overlap rule.
    func instant(showing wall: Int) -> Int {
        // The offsets in force a day either side cover every real transition; a wall time
        // is shown at `wall - offset` exactly when that offset is in force at that instant.
        let offsetBefore = offset(at: wall - 86_400)
        let offsetAfter = offset(at: wall + 86_400)
        let candidates = Set([wall - offsetBefore, wall - offsetAfter])
            .filter { wallTime(at: $0) == wall }
        if let earliest = candidates.min() {
            return earliest
        }
        // No instant shows this wall time: it lies in a gap. Reading it with the offset
        // from before the jump lands as far after the jump as the time was into the gap.
        return wall - offsetBefore
    }
}
