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

extension String {
    /// Text for people that fits in `limit` UTF-8 bytes: itself when it does, else cut at the
    /// last space or line break in its final quarter (else between characters) and ended with
    /// "…", so that a reader sees it was cut and no word is split.
    public func shortened(toUTF8Bytes limit: Int) -> String {
        guard utf8.count > limit else { return self }
        let ellipsis = "…"
        let room = truncated(toUTF8Bytes: Swift.max(0, limit - ellipsis.utf8.count))
        var cut = Substring(room)
        if let space = room.lastIndex(where: \.isWhitespace), room.distance(from: space, to: room.endIndex) <= room.count / 4 {
            cut = room[..<space]
        }
        return cut.trimmingTrailingWhitespace + ellipsis
    }
}

extension Substring {
    /// The text without the spaces and line breaks at its end.
    fileprivate var trimmingTrailingWhitespace: String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
