public import RelayCore

/// A vibration as data: pulses of the motor on, each followed by a pause.
public struct VibrationPattern: Hashable, Sendable, CustomStringConvertible {
    /// One pulse: the motor on for `on`, then off for `off` before the next pulse.
    public struct Pulse: Hashable, Sendable {
        /// How long the motor runs.
        public var on: Duration
        /// The pause after it (ignored after the last pulse).
        public var off: Duration

        /// Creates a pulse.
        public init(on: Duration, off: Duration = .zero) {
            self.on = on
            self.off = off
        }
    }

    /// The pulses, in order; empty for no vibration.
    public var pulses: [Pulse]

    /// Creates a pattern.
    public init(pulses: [Pulse]) {
        self.pulses = pulses
    }

    /// No vibration.
    public static let none = VibrationPattern(pulses: [])

    /// `120ms on, 100ms off, 120ms on`, or `none`.
    public var description: String {
        guard !pulses.isEmpty else { return "none" }
        return pulses.enumerated().flatMap { index, pulse in
            ["\(Self.milliseconds(pulse.on))ms on"] + (index == pulses.count - 1 ? [] : ["\(Self.milliseconds(pulse.off))ms off"])
        }.joined(separator: ", ")
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// How long the pattern takes, pauses between pulses included.
    public var duration: Duration {
        pulses.enumerated().reduce(.zero) { total, item in
            total + item.element.on + (item.offset == pulses.count - 1 ? .zero : item.element.off)
        }
    }

    /// The pattern of an interruption level: passive notifications do not vibrate, active ones
    /// tap once, time-sensitive ones twice, and critical ones buzz long three times, which is hard
    /// to miss under a sleeve.
    public static func pattern(for level: InterruptionLevel) -> VibrationPattern {
        switch level {
        case .passive:
            return .none
        case .active:
            return VibrationPattern(pulses: [Pulse(on: .milliseconds(150))])
        case .timeSensitive:
            return VibrationPattern(pulses: [
                Pulse(on: .milliseconds(120), off: .milliseconds(100)), Pulse(on: .milliseconds(120)),
            ])
        case .critical:
            let long = Pulse(on: .milliseconds(600), off: .milliseconds(250))
            return VibrationPattern(pulses: [long, long, long])
        }
    }
}
