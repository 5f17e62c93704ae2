import ArgumentParser
import RelayCore
import RelayDBus

/// `relayctl remove`: removes an app's pending requests or delivered notifications by identifier.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove an app's pending requests (--pending) or delivered notifications (--delivered) by identifier.",
        discussion: "All or nothing: if one identifier is unknown, relay-phone removes none and says which.")

    @OptionGroup var app: AppOptions

    @Flag(help: "Remove scheduled requests that have not fired.")
    var pending = false

    @Flag(help: "Remove delivered notifications (the app gets no response).")
    var delivered = false

    @Argument(help: "The requests' identifiers.")
    var identifiers: [String]

    @Flag(help: "Print JSON: {appId, from, removed}.")
    var json = false

    func validate() throws {
        guard pending != delivered else {
            throw ValidationError("say which to remove from: --pending (scheduled, not yet delivered) or --delivered")
        }
        if identifiers.isEmpty { throw ValidationError("give the identifiers to remove") }
    }

    func run() async throws {
        let method = pending ? "RemovePending" : "RemoveDelivered"
        try await app.withClient { client in
            _ = try await client.call(method, [.string(app.appID), DBusValue(identifiers)])
        }
        let from = pending ? "pending" : "delivered"
        if json {
            try JSONOutput.print(["appId": JSONValue.string(app.appID), "from": .string(from), "removed": .array(identifiers.map { .string($0) })])
        } else {
            print("removed from \(from) of \(app.appID): \(identifiers.joined(separator: ", "))")
        }
    }
}
