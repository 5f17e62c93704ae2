/// Where headers and dotted keys put their tables and values, and the rules that make a
/// key or table defined twice an error.
extension TOMLParser {
    /// Finds or creates the table a `[header]` names, and marks it defined.
    mutating func defineTable(_ parts: [KeyPart]) throws(TOMLSyntaxError) -> TOMLTreeTable {
        var node = root
        for (number, part) in parts.enumerated() {
            let path = Self.dotted(Array(parts[...number]))
            let isLast = number == parts.count - 1
            guard let entry = node.entries[part.name] else {
                let created = TOMLTreeTable(origin: isLast ? .header : .implicit, position: part.position)
                node.add(part.name, .table(created), at: part.position)
                node = created
                continue
            }
            switch entry.child {
            case .value(.table):
                throw error("the table [\(path)] was written as an inline table at line \(entry.position.line) and cannot be extended", at: part.offset)
            case .value:
                throw error("'\(path)' is already a value (line \(entry.position.line)), so it cannot be a table", at: part.offset)
            case .table(let table):
                if isLast {
                    switch table.origin {
                    case .implicit: table.origin = .header
                    case .header, .root:
                        throw error("the table [\(path)] is defined twice; first at line \(table.position.line)", at: part.offset)
                    case .dotted:
                        throw error("the table [\(path)] was already created by dotted keys at line \(table.position.line)", at: part.offset)
                    }
                }
                node = table
            }
        }
        return node
    }

    /// Puts `value` at the dotted key `parts` in `table`, creating the tables between;
    /// `prefix` is the table's own path, for messages.
    mutating func insert(_ value: TOMLValue, at parts: [KeyPart], into table: TOMLTreeTable, under prefix: [String])
        throws(TOMLSyntaxError)
    {
        var node = table
        for (number, part) in parts.enumerated() {
            let path = Self.dotted(prefix + parts[...number].map(\.name))
            guard let entry = node.entries[part.name] else {
                if number == parts.count - 1 {
                    node.add(part.name, .value(value), at: part.position)
                    return
                }
                let created = TOMLTreeTable(origin: .dotted, position: part.position)
                node.add(part.name, .table(created), at: part.position)
                node = created
                continue
            }
            if number == parts.count - 1 {
                throw error("the key '\(path)' is defined twice; first at line \(entry.position.line)", at: part.offset)
            }
            switch entry.child {
            case .value(.table):
                throw error("the inline table '\(path)' (line \(entry.position.line)) cannot be extended", at: part.offset)
            case .value:
                throw error("'\(path)' is already a value (line \(entry.position.line)), so it cannot hold keys", at: part.offset)
            case .table(let inner):
                guard inner.origin == .dotted else {
                    throw error("dotted keys cannot add to the table [\(path)], which a header defines; write the key under [\(path)]", at: part.offset)
                }
                node = inner
            }
        }
    }
}
