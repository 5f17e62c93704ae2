import ArgumentParser

/// The options of the commands that talk to relay-phone on D-Bus as an app would (Docs/RICH-API.md):
/// which bus, and which app they speak for.
struct AppOptions: ParsableArguments {
    @Option(help: "The bus relay-phone serves: session, system, or a D-Bus address (unix:path=…).")
    var bus: String = "session"

    @Option(name: .customLong("app-id"), help: "The app to act as, such as org.example.Social.")
    var appID: String = "org.relay.relayctl"

    func validate() throws {
        if appID.isEmpty { throw ValidationError("--app-id is empty; give an app id such as org.example.Social") }
        if bus.isEmpty { throw ValidationError("--bus is empty; give session, system, or a D-Bus address") }
    }

    /// Connects to relay-phone's API on the chosen bus.
    func connect() async throws -> RelayAPIClient {
        try await RelayAPIClient.connect(bus: bus)
    }
}

extension AppOptions {
    /// Runs `body` with a connection to relay-phone's API, closed afterwards however `body` ends.
    func withClient<T>(_ body: (RelayAPIClient) async throws -> T) async throws -> T {
        let client = try await connect()
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }
}
