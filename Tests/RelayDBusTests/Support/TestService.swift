import Foundation
import RelayDBus
import RelayTestSupport
import Synchronization

/// The object most connection tests call: echo methods for every type, failing methods, a method
/// that parks until the test releases it, file descriptor passing, and two properties.
final class TestService: Sendable {
    static let path = "/org/relay/Test"
    static let interface = "org.relay.Test"
    static let basicSignature = "ybnqiuxtdsog"

    /// Announces each `Park` call as it starts, so tests can await the handler instead of sleeping.
    let parkedCalls: AsyncStream<DBusMethodCall>
    private let parkedContinuation: AsyncStream<DBusMethodCall>.Continuation
    let release = Gate()
    let volume = Mutex<Int32>(5)

    init() {
        (parkedCalls, parkedContinuation) = AsyncStream.makeStream(of: DBusMethodCall.self)
    }

    func export(on connection: DBusConnection, at path: String = TestService.path) throws {
        try connection.export([interface()], at: path)
    }

    func interface() -> DBusInterface {
        DBusInterface(
            Self.interface,
            methods: [
                DBusMethod(
                    "EchoBasics", inputs: Self.basicSignature.map { DBusArgument(nil, String($0)) },
                    outputs: Self.basicSignature.map { DBusArgument(nil, String($0)) }
                ) { call in call.arguments },
                DBusMethod(
                    "EchoContainers",
                    inputs: [
                        DBusArgument("dict", "a{sv}"), DBusArgument("record", "(sia{ss})"),
                        DBusArgument("empty", "as"), DBusArgument("emptyDict", "a{sa{sv}}"),
                        DBusArgument("variants", "av"), DBusArgument("bytes", "ay"),
                    ],
                    outputs: [
                        DBusArgument("dict", "a{sv}"), DBusArgument("record", "(sia{ss})"),
                        DBusArgument("empty", "as"), DBusArgument("emptyDict", "a{sa{sv}}"),
                        DBusArgument("variants", "av"), DBusArgument("bytes", "ay"),
                    ]
                ) { call in call.arguments },
                DBusMethod("Echo", inputs: [DBusArgument("text", "s")], outputs: [DBusArgument("text", "s")]) {
                    call in call.arguments
                },
                DBusMethod("Fail") { _ in
                    throw DBusError("org.relay.Test.Error.Refused", "not today")
                },
                DBusMethod("Crash") { _ in
                    throw CocoaError(.fileNoSuchFile)
                },
                DBusMethod("Lie", outputs: [DBusArgument(nil, "s")]) { _ in [.int32(1)] },
                DBusMethod("Park", inputs: [DBusArgument("tag", "s")], outputs: [DBusArgument("tag", "s")]) {
                    [parkedContinuation, release] call in
                    parkedContinuation.yield(call)
                    await release.wait()
                    return call.arguments
                },
                DBusMethod("WriteGreeting", inputs: [DBusArgument("sink", "h")]) { call in
                    let sink = try call.arguments.decode(0, as: DBusUnixFD.self)
                    let greeting = Array("hello through a pipe".utf8)
                    guard write(sink.fileDescriptor, greeting, greeting.count) == greeting.count else {
                        throw DBusError(.ioError, "write failed")
                    }
                    return []
                },
                DBusMethod("OpenPipe", outputs: [DBusArgument("source", "h")]) { _ in
                    var ends: [Int32] = [0, 0]
                    guard pipe(&ends) == 0 else { throw DBusError(.ioError, "pipe failed") }
                    let source = DBusUnixFD(takingOwnershipOf: ends[0])
                    let sink = DBusUnixFD(takingOwnershipOf: ends[1])
                    _ = write(sink.fileDescriptor, "ping", 4)
                    return [.unixFD(source)]
                },
            ],
            signals: [DBusSignalDeclaration("Ping", arguments: [DBusArgument("text", "s")])],
            properties: [
                DBusProperty("Name", signature: "s", changeNotification: .constant) { .string("relay") },
                DBusProperty(
                    "Volume", signature: "i", get: { [self] in .int32(self.volume.withLock { $0 }) },
                    set: { [self] value in
                        let level = try value.decode(Int32.self)
                        guard (0...10).contains(level) else { throw DBusError(.invalidArgs, "Volume out of range") }
                        self.volume.withLock { $0 = level }
                    }),
            ])
    }
}

extension TestService {
    /// Starts a `Park` call from `client` to the service on `server`; the service holds it
    /// (see `parkedCalls`) until `release` opens, and the call waits without a timeout.
    func park(_ argument: String, from client: DBusConnection, to server: DBusConnection) -> Task<[DBusValue], any Error> {
        Task {
            try await client.call(
                destination: server.uniqueName, path: TestService.path, interface: TestService.interface,
                method: "Park", arguments: [.string(argument)], timeout: nil)
        }
    }
}
