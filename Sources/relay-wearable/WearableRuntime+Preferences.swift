import Foundation
import RelayCLI
import RelayControl
import RelayCore

/// `relayctl dnd` and `relayctl mutes` on the wearable, and the wrist's toggle and mute menu:
/// each change is stored and shared with the phone by the link (`WearableLink.setDoNotDisturb`,
/// `mute`, `unmute`).
extension WearableRuntime {
    /// Makes a change the wrist asked for, logging it or why it failed.
    func changePreferences(_ what: String, _ change: () throws -> Void) {
        do {
            try change()
            log("relay-wearable: \(what)")
        } catch {
            log.error("relay-wearable: could not store a change of the alert settings (\(what)): \(error); it did not take effect")
        }
    }

    func doNotDisturb(_ change: DoNotDisturbChange) -> ControlResponse {
        do {
            switch change {
            case .status: break
            case .on(let until):
                if let problem = Mute.endProblem("do not disturb", until: until, at: link.now, instead: "turn it on until turned off (relayctl dnd on --wearable)") {
                    return .failure(problem)
                }
                try link.setDoNotDisturb(on: true, until: until)
            case .off: try link.setDoNotDisturb(on: false)
            }
        } catch {
            return .failure("could not store do not disturb: \(error); it is unchanged")
        }
        return .success(doNotDisturbValues)
    }

    /// Do not disturb as it stands, for `status` and `dnd`.
    var doNotDisturbValues: [String: ControlValue] {
        let policy = link.alertPolicy
        let current = policy.doNotDisturb(at: link.now)
        return [
            "doNotDisturb": .string(current.map { "on (\($0.source))" + ($0.until.map { " until \($0.formatted(.iso8601))" } ?? "") } ?? "off"),
            "doNotDisturbShared": .string(link.sharesDoNotDisturb ? "with the phone" : "this wearable's own"),
        ]
    }

    func mutes(_ change: MuteChange) -> ControlResponse {
        do {
            switch change {
            case .list: break
            case .add(let app, let thread, let until):
                if let problem = Mute.problem(until: until, at: link.now) { return .failure(problem) }
                guard let scope = Self.scope(app: app, thread: thread) else { return .failure(Self.threadKeyAdvice(thread)) }
                try link.mute(scope, until: until)
            case .remove(let app, let thread):
                guard let scope = Self.scope(app: app, thread: thread) else { return .failure(Self.threadKeyAdvice(thread)) }
                guard try link.unmute(scope) else {
                    return .failure("\(Mute(scope).description.replacingOccurrences(of: "muted ", with: "")) is not muted; `relayctl mutes` lists the mutes")
                }
            }
        } catch {
            return .failure("could not store the mute: \(error); the mutes are unchanged")
        }
        let now = link.now
        return .success(["mutes": .list(link.alertPolicy.mutes.filter { $0.isInForce(at: now) }.map { $0.controlValue() })])
    }

    /// On the wearable a thread is named by its key, a number the phone gave it; `nil` for
    /// anything else.
    private static func scope(app: String, thread: String?) -> Mute.Scope? {
        guard let thread else { return .app(app) }
        guard let key = UInt32(thread), key > 0 else { return nil }
        return .thread(app: app, thread: String(key))
    }

    private static func threadKeyAdvice(_ thread: String?) -> String {
        "on the wearable a thread is named by its key, a number (\"\(thread ?? "")\" is none); "
            + "mute it by its identifier on the phone (relayctl mutes add APP --thread ID), or from the wrist's long look"
    }

}
