public import Foundation

/// What the wearable did with the phone's clock when a Hello brought it (Docs/PROTOCOL.md, "The
/// phone's clock"): a value for the log and `relayctl status`.
public enum ClockAdjustment: Sendable, Hashable, CustomStringConvertible {
    /// The clocks agree within ``tolerance`` (with the offset already kept, if any).
    case agrees(offset: TimeInterval)
    /// The difference is kept as an offset that every time the wearable shows or fires by uses.
    case offset(TimeInterval)
    /// The system clock was set to the phone's; it was `TimeInterval` behind (negative: ahead).
    case stepped(by: TimeInterval)
    /// Setting the system clock was refused (`reason`); the difference is kept as an offset.
    case stepRefused(offset: TimeInterval, reason: String)
    /// The phone's clock cannot be right (before 2024 or after 2200); the wearable keeps its own.
    case phoneClockWrong(Date)
    /// This clock does not follow the phone's (tests, tools).
    case notFollowed

    /// How far apart the clocks may be before the wearable corrects its own.
    public static let tolerance: TimeInterval = 2

    /// The earliest and latest the phone's clock may plausibly read.
    static let plausible = Date(timeIntervalSince1970: 1_704_067_200)...Date(timeIntervalSince1970: 7_258_118_400)

    /// The offset the wearable's times carry after this, `nil` when it changed nothing.
    public var offset: TimeInterval? {
        switch self {
        case .agrees(let offset): offset
        case .offset(let offset), .stepRefused(let offset, _): offset
        case .stepped: 0
        case .phoneClockWrong, .notFollowed: nil
        }
    }

    /// `clock: 3600.2 s behind the phone's; …`, the log line's form (without the agent's name).
    public var description: String {
        switch self {
        case .agrees(let offset):
            offset == 0 ? "clock: agrees with the phone's" : "clock: agrees with the phone's with the offset kept (\(Self.seconds(offset)))"
        case .offset(let offset):
            "clock: \(Self.apart(offset)) the phone's; the times shown and local firing follow the phone's "
                + "(an offset; clock.set_system_clock = true with CAP_SYS_TIME sets the system clock instead)"
        case .stepped(let difference):
            "clock: was \(Self.apart(difference)) the phone's; the system clock was set to the phone's"
        case .stepRefused(let offset, let reason):
            "clock: \(Self.apart(offset)) the phone's, and the system clock could not be set (\(reason)); "
                + "the times shown and local firing follow the phone's (an offset)"
        case .phoneClockWrong(let date):
            "clock: the phone's clock says \(date.formatted(.iso8601)), which cannot be right; the wearable keeps its own"
        case .notFollowed:
            "clock: not following the phone's"
        }
    }

    /// `3600.2 s behind`, `12.0 s ahead of`.
    private static func apart(_ difference: TimeInterval) -> String {
        difference > 0 ? "\(seconds(difference)) behind" : "\(seconds(-difference)) ahead of"
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        "\((interval * 10).rounded() / 10) s"
    }
}
