import ArgumentParser
import Foundation
import RelayControl
import enum RelayCore.MuteDuration

/// `relayctl mutes [add|remove APP]`: the apps and threads muted, shared by both devices.
struct MutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutes",
        abstract: "List, add or remove mutes: an app's or a thread's notifications then arrive silently.",
        discussion: """
            A muted app's notifications still reach the wearable and stay in its list; they only do not \
            buzz (Docs/POLICY.md). Mutes are shared: one added here, on the other device, or from the \
            wearable's long look (Mute…) holds on both, and the newest change of each wins. With \
            --thread, only that thread of the app: on the phone by the thread's identifier, on the \
            wearable (--wearable) by its key.
            """)

    enum Change: String, ExpressibleByArgument, CaseIterable {
        case list, add, remove
    }

    @Argument(help: "list, add or remove.")
    var change: Change = .list

    @Argument(help: "With add and remove: the app's name, as the notifications show it.")
    var app: String?

    @Option(help: "With add and remove: only this thread of the app.")
    var thread: String?

    @Option(name: .customLong("for"), help: "With add: for how long (1h, 90m), then unmuted by itself.")
    var duration: String?

    @Flag(help: "With add: until midnight.")
    var today = false

    @Flag(help: "With add: until removed (the default).")
    var always = false

    @OptionGroup var agent: EitherAgentOptions

    func validate() throws {
        if change == .list, app != nil || thread != nil { throw ValidationError("list takes no app; add or remove do") }
        if change != .list, app?.isEmpty ?? true { throw ValidationError("\(change.rawValue) needs the app's name") }
        if change != .add, duration != nil || today || always { throw ValidationError("--for, --today and --always go with add") }
        if [duration != nil, today, always].filter({ $0 }).count > 1 { throw ValidationError("give one of --for, --today and --always") }
        if let duration, DoNotDisturbCommand.seconds(of: duration) == nil {
            throw ValidationError("--for \(duration) is not a duration: write 1h, 90m or 1h30m")
        }
    }

    func run() throws {
        let request: MuteChange =
            switch change {
            case .list: .list
            case .remove: .remove(app: app ?? "", thread: thread)
            case .add:
                .add(
                    app: app ?? "", thread: thread,
                    until: duration.flatMap(DoNotDisturbCommand.seconds(of:)).map { Date().addingTimeInterval($0) }
                        ?? (today ? MuteDuration.today.until(from: Date(), in: .current) : nil))
            }
        guard let response = try agent.send(phone: .mutes(request), wearable: .mutes(request)) else { return }
        guard case .list(let mutes)? = response.values["mutes"], !mutes.isEmpty else {
            print("nothing is muted")
            return
        }
        for case .object(let mute) in mutes {
            let what = mute["thread"].map { "thread \($0) of \(mute["app"]?.description ?? "")" } ?? (mute["app"]?.description ?? "")
            print("\(what)\tuntil \(mute["until"]?.description ?? "always")")
        }
    }
}
