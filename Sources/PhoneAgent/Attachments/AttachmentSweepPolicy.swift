public import Foundation

/// When relay-phone sweeps its attachment store of files no notification or pending request
/// refers to any more, and which recent files it spares (they may belong to a notification on
/// its way into the centre). Time is passed in.
///
/// Once an hour, sparing the last ten minutes; and, because an app posting image after image
/// (and closing them) would fill the disk within the hour, after every `floodFiles` new files
/// too, sparing only the last `floodGrace` seconds: enough for a post taking in ten large
/// images (each stored, or marked used, as it is taken in) to reach the centre.
public struct AttachmentSweepPolicy: Sendable {
    /// The regular sweep's period.
    public static let interval: Duration = .seconds(3600)
    /// What the regular sweep spares, in seconds.
    public static let grace: TimeInterval = 600
    /// New files that bring a sweep before its hour.
    public static let floodFiles = 200
    /// What that sweep spares, in seconds.
    public static let floodGrace: TimeInterval = 60

    private var lastSweep: ContinuousClock.Instant
    private var writtenThen: Int

    /// A policy whose last sweep was at `now`, with the store's count of files written then.
    public init(now: ContinuousClock.Instant, written: Int) {
        lastSweep = now
        writtenThen = written
    }

    /// Whether to sweep at `now` with the store's count of files written so far: the seconds
    /// to spare if so (and the sweep counts as done), `nil` if not.
    public mutating func sweep(now: ContinuousClock.Instant, written: Int) -> TimeInterval? {
        let due = now - lastSweep >= Self.interval
        guard due || written - writtenThen >= Self.floodFiles else { return nil }
        (lastSweep, writtenThen) = (now, written)
        return due ? Self.grace : Self.floodGrace
    }
}
