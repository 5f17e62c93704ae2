import Foundation
import RelayDBus

/// relayctl's side of relay-phone's own API (`org.relay.Notifications1`, Docs/RICH-API.md), with
/// every failure turned into a sentence saying what happened and what to do.
struct RelayAPIClient {
    static let busName = "org.relay.Relay1"
    static let path = "/org/relay/Relay1"
    static let interface = "org.relay.Notifications1"

    let connection: DBusConnection
    /// `the session bus`, `the bus at unix:path=…`: for messages.
    let busDescription: String
    /// The `--bus` option to repeat in a suggested command, empty for the session bus.
    let busFlag: String

    /// Connects and checks that relay-phone owns its name, so that a missing agent is reported as such
    /// rather than as the bus's `ServiceUnknown`.
    static func connect(bus: String) async throws -> RelayAPIClient {
        let (target, description, flag): (DBusConnection.Bus, String, String) =
            switch bus {
            case "session": (.session, "the session bus", "")
            case "system": (.system, "the system bus", " --bus system")
            default: (.address(bus), "the bus at \(bus)", " --bus \(bus)")
            }
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: target)
        } catch {
            throw RelayCtlError(
                "cannot connect to \(description) (\(error)); give the bus relay-phone serves with --bus session, system or ADDRESS")
        }
        let owner = try? await connection.nameOwner(of: busName)
        guard owner != nil else {
            await connection.close()
            throw RelayCtlError(
                "relay-phone is not running on \(description) (\(busName) has no owner); "
                    + "start it with `relay-phone --transport loopback\(flag)`")
        }
        return RelayAPIClient(connection: connection, busDescription: description, busFlag: flag)
    }

    /// Calls a method of the API; relay-phone's refusals keep their message.
    func call(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await connection.call(
                destination: Self.busName, path: Self.path, interface: Self.interface, method: method, arguments: arguments)
        } catch let error as DBusError {
            switch error.name.rawValue {
            case "org.relay.Error.InvalidRequest":
                throw RelayCtlError("relay-phone refused the request:\n" + error.message)
            case "org.relay.Error.UnknownNotification":
                throw RelayCtlError("relay-phone: " + error.message)
            case DBusError.Name.serviceUnknown.rawValue, DBusError.Name.nameHasNoOwner.rawValue, DBusError.Name.noReply.rawValue:
                throw RelayCtlError(
                    "relay-phone stopped answering on \(busDescription) (\(error.name)); "
                        + "check that it runs, or start it with `relay-phone --transport loopback\(busFlag)`")
            case DBusError.Name.unknownMethod.rawValue, DBusError.Name.unknownObject.rawValue, DBusError.Name.unknownInterface.rawValue:
                throw RelayCtlError(
                    "the relay-phone on \(busDescription) does not know \(Self.interface).\(method) (\(error.message)); "
                        + "run relayctl and relay-phone of the same version")
            default:
                throw RelayCtlError("relay-phone: \(error)")
            }
        }
    }

    /// The string a method returned (the API's JSON answers, dates).
    func string(_ method: String, _ arguments: [DBusValue]) async throws -> String {
        let reply = try await call(method, arguments)
        do {
            return try reply.decode(0, as: String.self)
        } catch {
            throw RelayCtlError("relay-phone answered \(method) with \(reply), not a string; run relayctl and relay-phone of the same version")
        }
    }

    /// Closes the connection.
    func close() async {
        await connection.close()
    }
}

/// A failure of relayctl, as one message saying what happened and what to do.
struct RelayCtlError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension RelayAPIClient {
    /// The `Response` signals for one request of one app. Subscribe before posting, so that a response
    /// cannot come before the subscription.
    func responses(appID: String, identifier: String) async throws -> AsyncStream<DBusMessage> {
        try await connection.signals(
            matching: DBusMatchRule(
                kind: .signal, sender: Self.busName, interface: Self.interface, member: "Response", path: Self.path,
                arguments: [0: appID, 1: identifier]))
    }
}
