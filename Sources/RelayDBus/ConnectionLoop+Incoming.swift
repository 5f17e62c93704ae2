import CDBus

/// Incoming messages: signals to subscribers, method calls to exported objects, everything to a monitor.
extension ConnectionLoop {
    /// Entry point for every message libdbus dispatches that is not a reply to one of our pending calls.
    func receive(_ raw: OpaquePointer) {
        if dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0,
            dbus_message_has_path(raw, DBUS_PATH_LOCAL) != 0
        {
            // libdbus synthesises this once the transport is gone; it is the last message ever dispatched.
            stopped = true
            return
        }
        var message: DBusMessage
        do {
            message = try MessageDecoder.decodeHeader(raw)
            // A call of a method that reads its own arguments gets the message as it is.
            if !isMonitor, message.kind == .methodCall,
                let route = core.objects.withLock({ $0.readingRoute(message) })
            {
                return handleMethodCall(message, route: route, raw)
            }
            message.receive(arguments: try MessageDecoder.decodeArguments(of: raw))
        } catch {
            if !isMonitor, dbus_message_get_type(raw) == DBUS_MESSAGE_TYPE_METHOD_CALL {
                let address = ReplyAddress(
                    serial: dbus_message_get_serial(raw),
                    sender: dbus_message_get_sender(raw).map { String(cString: $0) },
                    noReplyExpected: dbus_message_get_no_reply(raw) != 0)
                sendReply(to: address, .failure(DBusError.invalidArgs("Cannot decode the arguments: \(error)")))
            }
            return
        }
        if let monitor {
            monitor.yield(message)
            return
        }
        switch message.kind {
        case .signal: deliverSignal(message)
        case .methodCall: handleMethodCall(message, raw)
        // Replies whose pending call was cancelled or timed out; nobody is waiting for them.
        case .methodReturn, .error: break
        }
    }

    // MARK: - Signals

    private func deliverSignal(_ message: DBusMessage) {
        updateTrackedOwner(from: message)
        for subscription in subscriptions.values {
            let matches = subscription.rule?.matches(message, ownerOf: { self.trackedNames[$0]?.owner }) ?? true
            if matches { subscription.continuation.yield(message) }
        }
    }

    private func updateTrackedOwner(from message: DBusMessage) {
        guard message.sender == DBusMatchRule.busName, message.interface == DBusMatchRule.busName,
            message.member == "NameOwnerChanged", message.arguments.count == 3,
            case .string(let name) = message.arguments[0], case .string(let newOwner) = message.arguments[2],
            trackedNames[name] != nil
        else { return }
        trackedNames[name]?.owner = newOwner.isEmpty ? nil : newOwner
    }

    // MARK: - Method calls

    /// Answers the call `message`, decoded from `raw`, by its `route` (found here if not given).
    private func handleMethodCall(_ message: DBusMessage, route: CallRoute? = nil, _ raw: OpaquePointer) {
        let address = ReplyAddress(message)
        guard drainingUntil == nil else {
            sendReply(to: address, .failure(DBusError(.failed, "The service is shutting down; the call was not carried out")))
            return
        }
        switch route ?? core.objects.withLock({ $0.route(message) }) {
        case .reply(let values):
            sendReply(to: address, .success(values))
        case .error(let error):
            sendReply(to: address, .failure(error))
        case .work(let outputSignature, let work):
            let core = core
            repliesOwed += 1
            Self.startHandler {
                let result = await Self.runHandler(work, outputSignature: outputSignature)
                core.mailbox.submit { loop in loop.sendOwedReply(to: address, result) }
            }
        case .replying(let outputSignature, let call, let handler):
            answer(to: address, outputSignature: outputSignature) { reply in try handler(call, reply) }
        case .reading(let outputSignature, let call, let handler):
            answer(to: address, outputSignature: outputSignature) { reply in
                // `raw` outlives the reader: libdbus frees it after this dispatch returns.
                var arguments = DBusArgumentReader(message: raw)
                try handler(call, &arguments, reply)
            }
        }
    }

    /// Runs a handler that answers through a pending reply; what it throws is the answer if it gave none.
    private func answer(
        to address: ReplyAddress, outputSignature: DBusSignature, _ handler: (DBusPendingReply) throws -> Void
    ) {
        let reply = pendingReply(to: address, outputSignature: outputSignature)
        do {
            try handler(reply)
        } catch {
            reply.fail(error as? DBusError ?? DBusError(.failed, String(describing: error)))
        }
    }

    /// The reply to a call, given from any thread: straight to the loop's mailbox, no task between,
    /// and in order with everything else submitted there (signals emitted before it go first).
    private func pendingReply(to address: ReplyAddress, outputSignature: DBusSignature) -> DBusPendingReply {
        let mailbox = core.mailbox
        repliesOwed += 1
        return DBusPendingReply(outputSignature: outputSignature) { result in
            // A closed mailbox means the connection is over: there is nobody left to answer.
            mailbox.submit { loop in loop.sendOwedReply(to: address, result) }
        }
    }

    /// Sends the reply a handler owed; a closing connection waits for these (`requestClose`).
    private func sendOwedReply(to address: ReplyAddress, _ result: Result<[DBusValue], DBusError>) {
        repliesOwed -= 1
        sendReply(to: address, result)
    }

    /// Starts a handler task. With Swift 6.2 and later the task starts immediately on this thread, so
    /// handlers begin in the order the calls arrived and only diverge at their first suspension.
    private static func startHandler(_ body: @escaping @Sendable () async -> Void) {
        #if compiler(>=6.2)
        Task.immediate { await body() }
        #else
        Task { await body() }
        #endif
    }

    /// Runs a handler and turns its outcome into the reply to send, checking the declared output type.
    private static func runHandler(
        _ work: @Sendable () async throws -> [DBusValue], outputSignature: DBusSignature
    ) async -> Result<[DBusValue], DBusError> {
        do {
            let values = try await work()
            try validateArguments(values)
            guard values.dbusSignature == outputSignature else {
                throw DBusError(
                    .failed, "The method returned values of type '\(values.dbusSignature)' "
                        + "instead of the declared '\(outputSignature)'")
            }
            return .success(values)
        } catch let error as DBusError {
            return .failure(error)
        } catch {
            return .failure(DBusError(.failed, String(describing: error)))
        }
    }

    /// Sends a method return or error reply, unless the caller asked for none.
    func sendReply(to address: ReplyAddress, _ result: Result<[DBusValue], DBusError>) {
        guard !address.noReplyExpected, !stopped, !isMonitor else { return }
        switch result {
        case .success(let values):
            do {
                try send(.methodReturn(to: address, arguments: values))
            } catch {
                // E.g. descriptors on a transport without fd passing: the caller must still get an answer.
                let reason = error as? DBusError ?? DBusError(.failed, String(describing: error))
                try? send(.error(to: address, reason))
            }
        case .failure(let error):
            // Only memory exhaustion makes this fail, and then there is nothing better to send.
            try? send(.error(to: address, error))
        }
    }

    /// Queues a message for sending. libdbus writes it as soon as the socket accepts it.
    func send(_ message: OutgoingMessage) throws {
        guard !stopped else { throw DBusError.connectionClosed }
        guard !isMonitor else { throw DBusError(.notSupported, "A monitor connection cannot send messages") }
        guard !message.containsUnixFDs || dbus_connection_can_send_type(connection, TypeCode.unixFD) != 0 else {
            throw DBusError(.notSupported, "This connection cannot pass file descriptors")
        }
        guard dbus_connection_send(connection, message.pointer, nil) != 0 else {
            throw DBusError(.noMemory, "Out of memory while sending a message")
        }
    }
}

extension ReplyAddress {
    init(serial: UInt32, sender: String?, noReplyExpected: Bool) {
        self.serial = serial
        self.sender = sender
        self.noReplyExpected = noReplyExpected
    }
}
