/// A TOML table: keys in the order the file defined them, each with its value and where
/// the key was written, so that later checks can point at the line.
public struct TOMLTable: Sendable, Equatable {
    private struct Entry: Sendable {
        var value: TOMLValue
        var position: TOMLPosition?
    }

    /// The keys in the order they were defined.
    public private(set) var keys: [String] = []
    private var entries: [String: Entry] = [:]

    /// An empty table.
    public init() {}

    /// A table of `pairs` in order; a repeated key keeps its last value.
    public init(_ pairs: KeyValuePairs<String, TOMLValue>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The number of keys.
    public var count: Int { keys.count }

    /// Whether the table has no keys.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value of `key`, or `nil`; setting a new key appends it, setting `nil` removes it.
    public subscript(key: String) -> TOMLValue? {
        get { entries[key]?.value }
        set {
            if let newValue { set(newValue, for: key, at: entries[key]?.position) } else { remove(key) }
        }
    }

    /// Where `key` was written in the file, when the table came from one.
    public func position(of key: String) -> TOMLPosition? {
        entries[key]?.position
    }

    /// Sets `key` to `value`, remembering where it was written.
    public mutating func set(_ value: TOMLValue, for key: String, at position: TOMLPosition?) {
        if entries[key] == nil { keys.append(key) }
        entries[key] = Entry(value: value, position: position)
    }

    /// Removes `key` and its value.
    public mutating func remove(_ key: String) {
        guard entries.removeValue(forKey: key) != nil else { return }
        keys.removeAll { $0 == key }
    }

    /// The pairs in order.
    public var pairs: [(key: String, value: TOMLValue)] {
        keys.compactMap { key in entries[key].map { (key, $0.value) } }
    }

    /// The value at a dotted path of keys (`["link", "heartbeat_seconds"]`), through nested tables.
    public func value(at path: [String]) -> TOMLValue? {
        guard let first = path.first, let value = self[first] else { return nil }
        if path.count == 1 { return value }
        guard case .table(let inner) = value else { return nil }
        return inner.value(at: Array(path.dropFirst()))
    }

    /// Equal keys in equal order with equal values; positions do not count.
    public static func == (left: TOMLTable, right: TOMLTable) -> Bool {
        left.keys == right.keys && left.keys.allSatisfy { left.entries[$0]?.value == right.entries[$0]?.value }
    }
}
