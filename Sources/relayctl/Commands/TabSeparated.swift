/// relayctl's lines of tab-separated fields, one record per line: tabs and line breaks inside
/// a field (a body of several lines, say) become spaces, so `cut` and `while read` still see
/// one record per line and its fields in their places.
enum TabSeparated {
    /// `fields` as one line.
    static func line(_ fields: [String]) -> String {
        fields.map { field in
            String(field.map { $0 == "\t" || $0.isNewline ? " " : $0 })
        }.joined(separator: "\t")
    }
}
