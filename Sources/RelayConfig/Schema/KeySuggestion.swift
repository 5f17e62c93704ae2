/// The known key a mistyped one most likely meant: the same last part in another section
/// (`heartbeat_seconds` written outside `[link]`), else the nearest by edits, where a
/// known key that merely continues the typed one (`link.timeout` → `link.timeout_seconds`)
/// counts as one edit.
enum KeySuggestion {
    static func closest(to typed: String, among known: [String]) -> String? {
        let target = normalized(typed)
        // Long keys are no typos of Relay's short ones; skipping them bounds the work.
        guard !target.isEmpty, target.count <= 64 else { return nil }
        let typedName = lastPart(target)
        if let moved = known.first(where: { lastPart(normalized($0)) == typedName }) { return moved }
        let allowance = max(1, min(3, typedName.count / 3))
        var best: (key: String, distance: Int)?
        for key in known {
            let candidate = normalized(key)
            var distance = editDistance(target, candidate)
            if candidate.count > target.count {
                distance = min(distance, editDistance(target, Array(candidate.prefix(target.count))) + 1)
            }
            if distance <= allowance, distance < (best?.distance ?? .max) { best = (key, distance) }
        }
        return best?.key
    }

    /// Lower case, with `-` as `_`, so a flag's spelling finds its key.
    private static func normalized(_ key: String) -> [Character] {
        Array(key.lowercased().map { $0 == "-" ? "_" : $0 })
    }

    private static func lastPart(_ key: [Character]) -> [Character] {
        Array(key.split(separator: ".").last ?? key[...])
    }

    /// Levenshtein distance with one row of memory.
    static func editDistance(_ left: [Character], _ right: [Character]) -> Int {
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var row = Array(0...right.count)
        for (i, a) in left.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, b) in right.enumerated() {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (a == b ? 0 : 1))
                diagonal = above
            }
        }
        return row[right.count]
    }
}
