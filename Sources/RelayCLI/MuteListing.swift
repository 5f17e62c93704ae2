public import RelayControl
public import RelayCore

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
