import CDBus

/// One bus connection that keeps many copies of one method call in flight from the calling
/// thread, with no event loop, tasks or thread hops: a load generator that costs the bus and
/// the server little beside what it measures (`relay-bench notify`).
///
/// Not for applications, which use `DBusConnection`. Blocking, and confined to the thread
/// that made it (hence not `Sendable`).
public final class DBusCallPipeline {
    /// What one `run` saw.
    public struct Outcome: Sendable {
        /// The round trip of every call answered inside the counted stretch, in the clock's units.
        public var roundTrips: [Int64] = []
    }

    private let connection: OpaquePointer
    private let call: OutgoingMessage

    /// Connects to the bus at `address` for calls of `method` on `destination`'s `path`.
    public init(
        address: String, destination: String, path: String, interface: String, method: String, arguments: [DBusValue]
    ) throws {
        call = try OutgoingMessage.methodCall(
            MethodCallRequest(destination: destination, path: path, interface: interface, method: method, arguments: arguments))
        connection = try ConnectionLoop.openConnection(address)
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Keeps `inFlight` calls outstanding until `clock()` reaches `end`, then collects the
    /// answers still due. Only calls answered between `countFrom` and `end` are counted.
    /// Throws on an error reply, a lost connection, or when no answer came for `patience`
    /// (in the clock's units): dbus-daemon never times out a call by itself.
    public func run(inFlight: Int, countFrom: Int64, end: Int64, patience: Int64, clock: () -> Int64) throws -> Outcome {
        // Calls are answered in any order; each remembers when it left by its serial.
        var sentAt: [UInt32: Int64] = [:]
        sentAt.reserveCapacity(inFlight * 2)
        var outcome = Outcome()
        for _ in 0..<inFlight { try send(&sentAt, clock()) }
        var lastAnswer = clock()
        while !sentAt.isEmpty {
            guard dbus_connection_read_write(connection, 100) != 0 else {
                throw DBusError(.disconnected, "The bus closed the connection during the run")
            }
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                let type = dbus_message_get_type(message)
                guard type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR,
                    let sent = sentAt.removeValue(forKey: dbus_message_get_reply_serial(message))
                else { continue }
                if type == DBUS_MESSAGE_TYPE_ERROR {
                    let name = dbus_message_get_error_name(message).map { String(cString: $0) } ?? DBusError.Name.failed.rawValue
                    var text = ""
                    if case .string(let said)? = (try? MessageDecoder.decodeArguments(of: message))?.first { text = said }
                    throw DBusError(DBusError.Name(rawValue: name), text)
                }
                let now = clock()
                lastAnswer = now
                if now >= countFrom, now <= end { outcome.roundTrips.append(now - sent) }
                if now < end { try send(&sentAt, now) }
            }
            // Only after taking what was read: answers that arrived with this read count.
            if !sentAt.isEmpty, clock() - lastAnswer > patience {
                throw DBusError(.noReply, "\(sentAt.count) calls went unanswered; is the server stuck?")
            }
        }
        return outcome
    }

    private func send(_ sentAt: inout [UInt32: Int64], _ now: Int64) throws {
        guard let copy = dbus_message_copy(call.pointer) else { throw DBusError(.noMemory, "Out of memory copying a call") }
        defer { dbus_message_unref(copy) }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, copy, &serial) != 0 else {
            throw DBusError(.noMemory, "Out of memory queueing a call")
        }
        sentAt[serial] = now
    }
}

/// A server that owns a name and answers every method call at once with the same values,
/// doing nothing else: what the bus and the load cost alone, the yardstick beside a real
/// server in `relay-bench notify`. Blocking, and confined to the thread that made it.
public final class DBusNullServer {
    private let connection: OpaquePointer
    private let reply: [DBusValue]

    /// Connects to the bus at `address` and takes `name`; throws if someone else holds it.
    public init(address: String, name: String, reply: [DBusValue]) throws {
        try DBusNames.requireBusName(name)
        try validateArguments(reply)
        connection = try ConnectionLoop.openConnection(address)
        self.reply = reply
        // Every property is set: a throw from here on runs `deinit`, which closes the connection.
        var result: Int32 = 0
        try DBusError.checking("dbus_bus_request_name") { error in
            result = dbus_bus_request_name(connection, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), error)
            return result != -1
        }
        guard result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER else {
            throw DBusError(.failed, "\(name) is owned by another connection")
        }
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Answers calls until `stopped()` says so (asked at least every 100 ms).
    public func serve(until stopped: () -> Bool) throws {
        while !stopped() {
            guard dbus_connection_read_write(connection, 100) != 0 else {
                throw DBusError(.disconnected, "The bus closed the connection")
            }
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL,
                    dbus_message_get_no_reply(message) == 0,
                    let answer = dbus_message_new_method_return(message)
                else { continue }
                defer { dbus_message_unref(answer) }
                try MessageEncoder.append(reply, to: answer)
                _ = dbus_connection_send(connection, answer, nil)
            }
        }
    }
}
