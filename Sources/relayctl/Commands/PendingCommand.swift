import ArgumentParser
import Foundation
import RelayCore

/// `relayctl pending`: an app's scheduled requests, from relay-phone's own D-Bus API.
struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List an app's scheduled requests that have not fired (or, repeating, will fire again).",
        discussion: "One per line, soonest first: identifier, next fire date (this machine's zone), trigger, title.")

    @OptionGroup var app: AppOptions

    @Flag(help: "Print relay-phone's JSON answer as it came: [{request, nextFireDate}].")
    var json = false

    /// One entry of `GetPending`.
    struct Entry: Decodable {
        let request: NotificationRequest
        let nextFireDate: Date
    }

    func run() async throws {
        let answer = try await app.withClient { client in try await client.string("GetPending", [.string(app.appID)]) }
        if json {
            print(answer)
            return
        }
        let entries: [Entry]
        do {
            entries = try RelayJSON.decode([Entry].self, from: Data(answer.utf8))
        } catch {
            throw RelayCtlError("relay-phone's GetPending answer is not a list of pending requests (\(error)); run relayctl and relay-phone of the same version")
        }
        for entry in entries {
            let trigger = entry.request.trigger.map(TriggerText.describe) ?? "no trigger"
            print([entry.request.identifier, ScheduleOptions.format(entry.nextFireDate, in: .current), trigger, entry.request.content.title]
                .joined(separator: "\t"))
        }
    }
}
