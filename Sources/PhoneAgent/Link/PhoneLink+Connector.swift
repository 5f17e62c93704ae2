import RelayTransport

extension PhoneLink {
    /// One connection to the wearable: through the configured connector (Bluetooth), else to
    /// the endpoint.
    func openConnection() async throws -> FramedConnection {
        if let connector = configuration.connector { return try await connector.connect() }
        return try await Transport.connect(to: configuration.endpoint)
    }

    /// The connector in use, if the link does not connect to its endpoint directly.
    public var connector: (any WearableConnector)? { configuration.connector }
}
