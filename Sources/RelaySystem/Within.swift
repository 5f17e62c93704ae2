/// What `body` returns, or `nil` if it has not returned within `limit`; it is then cancelled
/// and must end promptly. For a wait with a bound (bluetoothd's answer), or in tests for
/// asserting that something does not happen, where the bound is the verdict, not a way to
/// synchronise.
public func within<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async -> Value) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
