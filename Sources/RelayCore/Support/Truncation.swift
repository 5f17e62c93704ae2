extension String {
    /// The longest prefix that fits in `limit` UTF-8 bytes without splitting a character
    /// (a grapheme cluster: a flag, a family emoji, a letter with its accents).
    public func truncated(toUTF8Bytes limit: Int) -> String {
        guard utf8.count > limit else { return self }
        var bytes = 0
        var end = startIndex
        for character in self {
            let size = character.utf8.count
            guard bytes + size <= limit else { break }
            bytes += size
            end = index(after: end)
        }
        return String(self[..<end])
    }
}
