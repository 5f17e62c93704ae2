import ArgumentParser
import Foundation
import RelayCore

/// `relayctl schedule`: schedules a request with a trigger through relay-phone's own D-Bus API.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Schedule a notification with relay-phone: after an interval (--in) or at a wall-clock time (--at, --weekday, …).",
        discussion: """
            Calendar options are matched in relay-phone's time zone. The trigger options replace a \
            trigger in the --request file. Prints the identifier and the first fire date in this \
            machine's zone; relayctl pending lists what is scheduled. Docs/RICH-API.md.
            """)

    @OptionGroup var app: AppOptions
    @OptionGroup var request: RequestOptions
    @OptionGroup var trigger: TriggerOptions

    @Flag(help: "Print JSON: {identifier, appId, nextFireDate}.")
    var json = false

    func run() async throws {
        var request = try request.request()
        if let trigger = try trigger.trigger() { request.trigger = trigger }
        guard let trigger = request.trigger else {
            throw RelayCtlError(
                "schedule needs a trigger: --in SECONDS, calendar options such as --at 08:30, or a \"trigger\" in the --request file")
        }
        let text = String(decoding: try RelayJSON.encode(request), as: UTF8.self)
        let next = try await app.withClient { client in
            try await client.string("Schedule", [.string(app.appID), .string(text)])
        }
        if json {
            try JSONOutput.print(["identifier": JSONValue.string(request.identifier), "appId": .string(app.appID), "nextFireDate": .string(next)])
            return
        }
        let local = (try? Date(next, strategy: .iso8601)).map { ScheduleOptions.format($0, in: .current) } ?? next
        print("\(request.identifier): \(TriggerText.describe(trigger)); next at \(local)")
    }
}
