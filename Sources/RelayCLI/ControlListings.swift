public import RelayControl
public import RelayCore
public import RelayStore

extension Mute {
    /// The mute as `relayctl mutes` lists it on either agent: `{app, thread, until}`, the
    /// thread named by `threadName` (the phone gives its identifier, the wearable its key).
    public func controlValue(threadName: (String) -> String = { $0 }) -> ControlValue {
        var object: [String: ControlValue] = ["until": .string(until?.formatted(.iso8601) ?? "always")]
        switch scope {
        case .app(let app): object["app"] = .string(app)
        case .thread(let app, let thread):
            object["app"] = .string(app)
            object["thread"] = .string(threadName(thread))
        }
        return .object(object)
    }
}

extension DecisionHistoryTable.Entry {
    /// The decision as `relayctl why` and `history` list it on either agent: `{at, notification,
    /// revision, app, alerted, reason}`.
    public var controlValue: ControlValue {
        .object([
            "at": .int(Int(at)), "notification": .string(notification), "revision": .int(Int(revision)),
            "app": .string(app), "alerted": .int(alerted ? 1 : 0), "reason": .string(reason),
        ])
    }
}
