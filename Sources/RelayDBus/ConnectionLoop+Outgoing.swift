import CDBus

/// Outgoing calls and their replies, bus match subscriptions and monitoring. Loop thread only.
extension ConnectionLoop {
    /// `DBUS_TIMEOUT_INFINITE`, which Swift cannot import because the header defines it as a cast.
    static let infiniteTimeout = Int32.max

    // MARK: - Method calls

    /// Sends a call and arranges for `completion` to run on this thread with the reply, an error, or
    /// `CancellationError` if `cancellation` fires first.
    func startCall(
        token: UInt64, _ request: MethodCallRequest, timeoutMilliseconds: Int32, cancellation: CancellationFlag? = nil,
        sending: (@Sendable () -> Void)? = nil, completion: @escaping (Result<DBusMessage, any Error>) -> Void
    ) {
        if cancellation?.isCancelled == true { return completion(.failure(CancellationError())) }
        guard !stopped else { return completion(.failure(DBusError.connectionClosed)) }
        guard !isMonitor else {
            return completion(.failure(DBusError(.notSupported, "A monitor connection cannot send messages")))
        }
        let message: OutgoingMessage
        do {
            message = try .methodCall(request)
            guard !message.containsUnixFDs || dbus_connection_can_send_type(connection, TypeCode.unixFD) != 0 else {
                throw DBusError(.notSupported, "This connection cannot pass file descriptors")
            }
        } catch {
            return completion(.failure(error))
        }
        var created: OpaquePointer?
        sending?()
        guard dbus_connection_send_with_reply(connection, message.pointer, &created, timeoutMilliseconds) != 0 else {
            return completion(.failure(DBusError(.noMemory, "Out of memory while sending a call")))
        }
        // libdbus gives no pending call when the connection is already disconnected.
        guard let pending = created else { return completion(.failure(DBusError.connectionClosed)) }
        pendingCalls[pending] = PendingCall(token: token, completion: completion)
        pendingTokens[token] = pending
        guard dbus_pending_call_set_notify(pending, Self.pendingCallNotify, callbackContext, nil) != 0 else {
            pendingCalls[pending] = nil
            pendingTokens[token] = nil
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            return completion(.failure(DBusError(.noMemory, "Out of memory while sending a call")))
        }
        // Replies are only processed while dispatching, so this cannot be complete yet; stay robust anyway.
        if dbus_pending_call_get_completed(pending) != 0 { completePendingCall(pending) }
    }

    /// Called by libdbus (through the notify callback) when a reply, a timeout or a disconnection
    /// completes a pending call.
    func completePendingCall(_ pending: OpaquePointer) {
        guard let call = pendingCalls.removeValue(forKey: pending) else { return }
        pendingTokens[call.token] = nil
        let reply = dbus_pending_call_steal_reply(pending)
        dbus_pending_call_unref(pending)
        guard let reply else {
            return call.completion(.failure(DBusError(.noReply, "The call completed without a reply")))
        }
        defer { dbus_message_unref(reply) }
        do {
            let message = try MessageDecoder.decodeMessage(reply)
            guard var error = message.error else { return call.completion(.success(message)) }
            // libdbus answers locally (no sender) with NoReply both on timeout and when the connection
            // drops; tell the two apart so callers can react to a lost bus specifically.
            if message.sender == nil && dbus_connection_get_is_connected(connection) == 0 {
                error = DBusError(.disconnected, "The connection was lost before a reply arrived")
            }
            call.completion(.failure(error))
        } catch {
            call.completion(.failure(error))
        }
    }

    /// Abandons a call whose task was cancelled; a reply arriving later is dropped.
    func cancelCall(token: UInt64) {
        guard let pending = pendingTokens.removeValue(forKey: token),
            let call = pendingCalls.removeValue(forKey: pending)
        else { return }
        dbus_pending_call_cancel(pending)
        dbus_pending_call_unref(pending)
        call.completion(.failure(CancellationError()))
    }

    /// Calls a method of the bus itself (`org.freedesktop.DBus`).
    func callBus(
        _ method: String, _ arguments: [DBusValue], interface: String = DBusMatchRule.busName,
        completion: @escaping (Result<DBusMessage, any Error>) -> Void
    ) {
        do {
            let request = try MethodCallRequest(
                destination: DBusMatchRule.busName, path: DBusMatchRule.busPath, interface: interface,
                method: method, arguments: arguments)
            startCall(token: core.makeToken(), request, timeoutMilliseconds: -1, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// Calls a bus method without waiting for (or receiving) a reply.
    func callBusWithoutReply(_ method: String, _ arguments: [DBusValue]) {
        guard !stopped, !isMonitor,
            var request = try? MethodCallRequest(
                destination: DBusMatchRule.busName, path: DBusMatchRule.busPath, interface: DBusMatchRule.busName,
                method: method, arguments: arguments)
        else { return }
        request.noReplyExpected = true
        try? send(.methodCall(request))
    }

    // MARK: - Signal subscriptions

    /// Registers a signal stream and, for a rule, asks the bus to route matching messages here.
    /// `completion` runs once the bus has accepted the rule, so no later signal can be missed.
    func addSubscription(
        token: UInt64, rule: DBusMatchRule?, continuation: AsyncStream<DBusMessage>.Continuation,
        completion: @escaping (Result<Void, any Error>) -> Void
    ) {
        guard !stopped else {
            continuation.finish()
            return completion(.failure(DBusError.connectionClosed))
        }
        guard !isMonitor else {
            continuation.finish()
            return completion(.failure(DBusError(.notSupported, "A monitor connection cannot subscribe to signals")))
        }
        subscriptions[token] = Subscription(rule: rule, continuation: continuation)
        guard let rule else { return completion(.success(())) }
        if let sender = rule.sender, DBusMatchRule.needsOwnerTracking(sender) { retainTrackedName(sender) }
        callBus("AddMatch", [.string(rule.description)]) { result in
            switch result {
            case .success:
                completion(.success(()))
            case .failure(let error):
                // The bus has no such rule, so removing the subscription must not send RemoveMatch.
                if self.subscriptions.removeValue(forKey: token) != nil, let sender = rule.sender,
                    DBusMatchRule.needsOwnerTracking(sender)
                {
                    self.releaseTrackedName(sender)
                }
                continuation.finish()
                completion(.failure(error))
            }
        }
    }

    /// Forgets a subscription whose stream ended, and withdraws its rule from the bus.
    func removeSubscription(token: UInt64) {
        guard let subscription = subscriptions.removeValue(forKey: token) else { return }
        subscription.continuation.finish()
        guard let rule = subscription.rule else { return }
        callBusWithoutReply("RemoveMatch", [.string(rule.description)])
        if let sender = rule.sender, DBusMatchRule.needsOwnerTracking(sender) { releaseTrackedName(sender) }
    }

    /// Starts following the owner of a well-known name that a subscription's rule names as sender.
    ///
    /// The `NameOwnerChanged` rule is added before `GetNameOwner` is asked, and the bus answers in
    /// order, so the reply reflects the owner after every change already delivered and changes after
    /// it arrive later: applying both in arrival order always leaves the current owner.
    private func retainTrackedName(_ name: String) {
        if trackedNames[name] != nil {
            trackedNames[name]?.users += 1
            return
        }
        trackedNames[name] = TrackedName(owner: nil, users: 1)
        callBus("AddMatch", [.string(DBusMatchRule.nameOwnerChanged(name: name).description)]) { _ in }
        callBus("GetNameOwner", [.string(name)]) { result in
            guard self.trackedNames[name] != nil else { return }
            if case .success(let reply) = result, case .string(let owner)? = reply.arguments.first {
                self.trackedNames[name]?.owner = owner
            }
        }
    }

    private func releaseTrackedName(_ name: String) {
        guard let tracked = trackedNames[name] else { return }
        if tracked.users > 1 {
            trackedNames[name]?.users -= 1
            return
        }
        trackedNames[name] = nil
        callBusWithoutReply("RemoveMatch", [.string(DBusMatchRule.nameOwnerChanged(name: name).description)])
    }

    // MARK: - Monitoring

    /// Turns the connection into a monitor. Once the bus agrees, every message goes to `continuation`,
    /// nothing is ever sent again, and other subscriptions end.
    func becomeMonitor(
        rules: [DBusMatchRule], continuation: AsyncStream<DBusMessage>.Continuation,
        completion: @escaping (Result<Void, any Error>) -> Void
    ) {
        // Without this, libdbus itself would answer Peer.Ping calls between other connections that the
        // monitor merely observes, and the bus disconnects monitors that send anything.
        dbus_connection_set_route_peer_messages(connection, 1)
        let ruleTexts = rules.map { DBusValue.string($0.description) }
        callBus(
            "BecomeMonitor", [.array(elementSignature: .string, elements: ruleTexts), .uint32(0)],
            interface: "org.freedesktop.DBus.Monitoring"
        ) { result in
            switch result {
            case .success:
                // This runs while the reply is dispatched, before any monitored message is.
                self.monitor = continuation
                for subscription in self.subscriptions.values { subscription.continuation.finish() }
                self.subscriptions.removeAll()
                self.trackedNames.removeAll()
                completion(.success(()))
            case .failure(let error):
                dbus_connection_set_route_peer_messages(self.connection, 0)
                continuation.finish()
                completion(.failure(error))
            }
        }
    }
}
