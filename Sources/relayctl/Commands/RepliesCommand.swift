import ArgumentParser
import Foundation
import RelayControl

/// `relayctl replies [add|remove TEXT | set TEXT… | reset]`: the canned replies the wearable
/// offers for every text-input action.
struct RepliesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replies",
        abstract: "List, add, remove or set the canned replies the wearable offers when a notification asks for text.",
        discussion: """
            The wearable has no keyboard: a reply to a message (KDE's inline reply, a text-input action of \
            Relay's API) is one of the app's suggestions or one of these (Docs/WEARABLE.md). They start as \
            phone.toml's [replies] (canned, then emoji); set here, they replace those until `relayctl \
            replies reset`, and the wearable takes them over the link, now or when it is next in range. \
            At most 16, each one line of at most 128 bytes. For example: relayctl replies add "Call you \
            later"; relayctl replies set "Yes" "No" "On my way".
            """)

    enum Change: String, ExpressibleByArgument, CaseIterable {
        case list, add, remove, set, reset
    }

    @Argument(help: "list, add, remove, set or reset.")
    var change: Change = .list

    @Argument(help: "With add and remove: the reply; with set: every reply, in order.")
    var texts: [String] = []

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func validate() throws {
        switch change {
        case .list, .reset:
            if !texts.isEmpty { throw ValidationError("\(change.rawValue) takes no text") }
        case .add, .remove:
            if texts.count != 1 { throw ValidationError("\(change.rawValue) takes one reply; quote it if it has spaces: relayctl replies \(change.rawValue) \"Call you later\"") }
        case .set:
            break
        }
    }

    func run() throws {
        let request: RepliesChange =
            switch change {
            case .list: .list
            case .add: .add(texts[0])
            case .remove: .remove(texts[0])
            case .set: .set(texts)
            case .reset: .reset
            }
        let response = try control.send(PhoneRequest.replies(request), json: json)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        let source = response.values["source"]?.description == "relayctl" ? "set with relayctl replies" : "phone.toml's [replies]"
        guard case .list(let replies)? = response.values["replies"], !replies.isEmpty else {
            print("no canned replies (\(source)): the wearable offers only an app's own suggestions")
            return
        }
        print("canned replies (\(source)):")
        for reply in replies { print("  \(reply)") }
    }
}
