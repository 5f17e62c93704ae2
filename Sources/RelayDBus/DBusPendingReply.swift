import Synchronization

/// The answer a method call is owed, given once from any thread: the way a method declared with
/// ``DBusMethod/init(_:inputs:outputs:replying:)`` replies when its work finishes elsewhere (a
/// database commit, say) without an async task waiting for it.
///
/// The first answer counts and later ones are ignored. A pending reply dropped unanswered
/// answers the caller with `org.freedesktop.DBus.Error.Failed`, so no caller waits for a reply
/// that will never come.
public final class DBusPendingReply: Sendable {
    private let outputSignature: DBusSignature
    private let deliver: @Sendable (Result<[DBusValue], DBusError>) -> Void
    private let answered = Atomic<Bool>(false)

    init(outputSignature: DBusSignature, deliver: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void) {
        self.outputSignature = outputSignature
        self.deliver = deliver
    }

    /// Whether an answer was given already.
    public var isAnswered: Bool { answered.load(ordering: .acquiring) }

    /// Replies with `values`, which must have the method's declared output type (otherwise the
    /// caller gets an error saying so).
    public func succeed(_ values: [DBusValue]) {
        guard claim() else { return }
        do {
            try validateArguments(values)
            guard values.dbusSignature == outputSignature else {
                throw DBusError(
                    .failed, "The method returned values of type '\(values.dbusSignature)' "
                        + "instead of the declared '\(outputSignature)'")
            }
            deliver(.success(values))
        } catch {
            deliver(.failure(error as? DBusError ?? DBusError(.failed, String(describing: error))))
        }
    }

    /// Replies with an error.
    public func fail(_ error: DBusError) {
        guard claim() else { return }
        deliver(.failure(error))
    }

    private func claim() -> Bool {
        answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    deinit {
        if claim() { deliver(.failure(DBusError(.failed, "The method finished without replying"))) }
    }
}
