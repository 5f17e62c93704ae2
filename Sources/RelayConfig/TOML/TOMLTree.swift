/// The tables of a document while it is being read, with how each came to exist, which
/// decides what may still be added to it:
/// - a `[header]` defines a table once; its parents are created implicitly and may be
///   defined by their own header later;
/// - dotted keys (`a.b = 1`) create tables that no header may define afterwards, and dotted
///   keys may not reach into tables that headers created;
/// - inline tables and other values are complete once written.
///
/// A class because the reader descends into a table and keeps adding to it; it lives only
/// inside one call to the parser.
final class TOMLTreeTable {
    enum Origin {
        case root, implicit, header, dotted
    }

    enum Child {
        case table(TOMLTreeTable)
        case value(TOMLValue)
    }

    struct Entry {
        var child: Child
        var position: TOMLPosition
    }

    var origin: Origin
    /// Where the table was first named (its header or first dotted key).
    var position: TOMLPosition
    private(set) var keys: [String] = []
    private(set) var entries: [String: Entry] = [:]

    init(origin: Origin, position: TOMLPosition) {
        self.origin = origin
        self.position = position
    }

    func add(_ key: String, _ child: Child, at position: TOMLPosition) {
        if entries[key] == nil { keys.append(key) }
        entries[key] = Entry(child: child, position: position)
    }

    /// The finished table; recursion is bounded by the parser's depth limit.
    func freeze() -> TOMLTable {
        var table = TOMLTable()
        for key in keys {
            guard let entry = entries[key] else { continue }
            switch entry.child {
            case .table(let inner): table.set(.table(inner.freeze()), for: key, at: entry.position)
            case .value(let value): table.set(value, for: key, at: entry.position)
            }
        }
        return table
    }
}
