import Foundation
import RelayDBus
import RelayTestSupport
import Testing

/// Methods declared with `reading:` take their arguments through a `DBusArgumentReader`:
/// straight from the message when the call names its interface, from decoded values when it
/// comes the general way; both must read the same.
@Suite("Argument reader", .timeLimit(.minutes(1)))
struct ArgumentReaderTests {
    static let path = "/org/relay/Reading"
    static let interface = "org.relay.Reading"

    /// Reads `s u as a{sv} i` and answers with what it read, and how many decoded values the
    /// call itself carried (none when read from the message).
    private static func describe(_ call: DBusMethodCall, _ arguments: inout DBusArgumentReader) throws(DBusError) -> String {
        let name = try arguments.read(String.self)
        let number = try arguments.read(UInt32.self)
        var words: [String] = []
        try arguments.readArray { elements throws(DBusError) in
            while !elements.isAtEnd { words.append(try elements.read(String.self)) }
        }
        var entries: [String] = []
        try arguments.readDictionary { entry throws(DBusError) in
            let key = try entry.read(String.self)
            entries.append("\(key)=\(try entry.readValue())")
        }
        let signed = try arguments.read(Int32.self)
        guard arguments.isAtEnd else { throw DBusError(.invalidArgs, "too many") }
        return "\(name) \(number) [\(words.joined(separator: ","))] {\(entries.joined(separator: ","))} \(signed) "
            + "decoded=\(call.arguments.count)"
    }

    private var service: DBusInterface {
        DBusInterface(
            Self.interface,
            methods: [
                DBusMethod(
                    "Describe",
                    inputs: [.init("name", "s"), .init("number", "u"), .init("words", "as"), .init("hints", "a{sv}"), .init("signed", "i")],
                    outputs: [.init("text", "s")],
                    reading: { call, arguments, reply in reply.succeed([.string(try Self.describe(call, &arguments))]) }),
                // Declares a string but reads a number: the reader's error is the answer.
                DBusMethod("Misread", inputs: [.init("text", "s")], outputs: [.init("n", "u")]) { _, arguments, reply in
                    reply.succeed([.uint32(try arguments.read(UInt32.self))])
                },
                // Reads one argument more than it declares.
                DBusMethod("Overread", inputs: [.init("text", "s")], outputs: [.init("text", "s")]) { _, arguments, reply in
                    _ = try arguments.read(String.self)
                    reply.succeed([.string(try arguments.read(String.self))])
                },
            ])
    }

    private let arguments: [DBusValue] = [
        .string("relay"), .uint32(7), .array(elementSignature: .string, elements: [.string("a"), .string("b")]),
        .dictionary(
            keySignature: .string, valueSignature: .variant,
            entries: [DBusDictionaryEntry(key: .string("urgency"), value: .variant(.byte(2)))]),
        .int32(-3),
    ]

    private func withReadingService(_ body: (_ client: DBusConnection, _ server: DBusConnection) async throws -> Void)
        async throws
    {
        try await withPrivateBus { bus in
            let server = try await bus.connect()
            let client = try await bus.connect()
            try server.export([service], at: Self.path)
            try await body(client, server)
        }
    }

    @Test func aCallNamingItsInterfaceIsReadStraightFromTheMessage() async throws {
        try await withReadingService { client, server in
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface, method: "Describe",
                arguments: arguments)
            #expect(reply == [.string("relay 7 [a,b] {urgency=\(DBusValue.variant(.byte(2)))} -3 decoded=0")])
        }
    }

    @Test func aCallWithoutInterfaceIsReadFromDecodedValuesAlike() async throws {
        try await withReadingService { client, server in
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: nil, method: "Describe", arguments: arguments)
            #expect(reply == [.string("relay 7 [a,b] {urgency=\(DBusValue.variant(.byte(2)))} -3 decoded=5")])
        }
    }

    @Test func aWrongSignatureNeverReachesTheReader() async throws {
        try await withReadingService { client, server in
            let error = try await #require(throws: DBusError.self) {
                try await client.call(
                    destination: server.uniqueName, path: Self.path, interface: Self.interface, method: "Describe",
                    arguments: [.string("relay")])
            }
            #expect(error.name == .invalidArgs)
            #expect(error.message.contains("suasa{sv}i"))
        }
    }

    @Test func whatTheReaderCannotReadIsAnInvalidArgsAnswer() async throws {
        try await withReadingService { client, server in
            for method in ["Misread", "Overread"] {
                let error = try await #require(throws: DBusError.self) {
                    try await client.call(
                        destination: server.uniqueName, path: Self.path, interface: Self.interface, method: method,
                        arguments: [.string("text")])
                }
                #expect(error.name == .invalidArgs, "\(method)")
            }
            // The connection goes on serving.
            let reply = try await client.call(
                destination: server.uniqueName, path: Self.path, interface: Self.interface, method: "Describe",
                arguments: arguments)
            #expect(reply.count == 1)
        }
    }

    @Test func decodedValuesOfTheWrongTypeAreErrorsThatNameBoth() throws {
        var reader = DBusArgumentReader([.uint32(1), .string("x"), .bytes([1, 2])])
        let error = try #require(throws: DBusError.self) { try reader.read(String.self) }
        #expect(error.name == .invalidArgs)
        #expect(error.message.contains("'s'") && error.message.contains("'u'"))
        #expect(throws: DBusError.self) { try reader.readDictionary { _ throws(DBusError) in } }
        // A byte array reads as an array of bytes.
        let bytes = try reader.readArray { elements throws(DBusError) in
            var values: [DBusValue] = []
            while !elements.isAtEnd { values.append(try elements.readValue()) }
            return values
        }
        #expect(bytes == [.byte(1), .byte(2)])
        let atEnd = reader.isAtEnd
        #expect(atEnd)
        let past = try #require(throws: DBusError.self) { try reader.read(Int32.self) }
        #expect(past.message.contains("no more"))
    }
}
