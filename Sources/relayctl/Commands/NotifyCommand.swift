import ArgumentParser
import Foundation
import RelayCore
import RelayDBus

/// `relayctl notify`: posts a request through relay-phone's own D-Bus API, as an app would.
struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Post a notification through relay-phone's own D-Bus API (org.relay.Notifications1), as an app would.",
        discussion: """
            Prints the notification's id and the request's identifier, tab-separated. Posting an \
            identifier again updates that notification in place and keeps its id. With --wait, \
            relayctl then waits for the user's response (relayctl invoke, reply, dismiss; later the \
            wearable) and prints its action, and the text of a reply after a tab, as notify-send \
            --wait does. A dismissal is reported only for categories with the customDismissAction \
            option, so without it --wait waits until an action is chosen. Docs/RICH-API.md.
            """)

    @OptionGroup var app: AppOptions
    @OptionGroup var request: RequestOptions

    @Flag(help: "Wait for the response and print it.")
    var wait = false

    @Flag(help: "Print JSON: {id, identifier, appId}, or with --wait the response {action, text, …}.")
    var json = false

    func run() async throws {
        let request = try request.request()
        let text = String(decoding: try RelayJSON.encode(request), as: UTF8.self)
        try await app.withClient { client in
            // Subscribed before posting: a response cannot overtake the subscription.
            var responses = wait ? try await client.responses(appID: app.appID, identifier: request.identifier).makeAsyncIterator() : nil
            let reply = try await client.call("Post", [.string(app.appID), .string(text)])
            guard let id = try? reply.decode(0, as: UInt32.self) else {
                throw RelayCtlError("relay-phone answered Post with \(reply), not an id; run relayctl and relay-phone of the same version")
            }
            if !wait {
                if json {
                    try JSONOutput.print(["id": JSONValue.integer(Int64(id)), "identifier": .string(request.identifier), "appId": .string(app.appID)])
                } else {
                    print("\(id)\t\(request.identifier)")
                }
                return
            }
            if !json {
                print("\(id)\t\(request.identifier)")
                // Whoever reads the pipe learns the id now, to act on it while relayctl waits.
                fflush(nil)
            }
            guard let signal = await responses?.next() else {
                throw RelayCtlError("the connection to relay-phone ended before a response came; is relay-phone still running?")
            }
            let action = (try? signal.arguments.decode(2, as: String.self)) ?? ""
            let replyText = (try? signal.arguments.decode(3, as: String.self)) ?? ""
            if json {
                try JSONOutput.print([
                    "id": JSONValue.integer(Int64(id)), "identifier": .string(request.identifier), "appId": .string(app.appID),
                    "action": .string(action), "text": .string(replyText),
                ])
            } else {
                print(replyText.isEmpty ? action : "\(action)\t\(replyText)")
            }
        }
    }
}
