/// The error underneath a ``LinkFailure``, kept as it was thrown so that a caller can look
/// inside (`error as? DatabaseError`, a system call's errno) rather than parse its text.
///
/// Two causes are equal when they describe themselves alike, which is what a log or a test
/// can tell apart; `LinkFailure` stays `Hashable` with it.
public struct FailureCause: Sendable, Hashable, CustomStringConvertible {
    /// The underlying error.
    public let error: any Error

    /// Keeps `error`.
    public init(_ error: any Error) {
        self.error = error
    }

    /// The underlying error's own description.
    public var description: String { String(describing: error) }

    public static func == (lhs: FailureCause, rhs: FailureCause) -> Bool {
        lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }
}
