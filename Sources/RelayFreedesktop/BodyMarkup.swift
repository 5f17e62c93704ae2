/// The freedesktop body markup (`<b>`, `<i>`, `<u>`, `<a href>`, `<img alt>`, entities)
/// turned into plain text: the wearable draws plain text, and a client that sends markup
/// should see its words, not its tags.
///
/// Only those tags are markup. Clients such as notify-send pass the body as the user typed it,
/// so "From: Jane <jane@example.org>" must keep its address: anything else between `<` and `>`
/// is text, as the desktop servers treat it.
public enum BodyMarkup {
    /// The text with the specification's tags removed (an image becomes its `alt` text) and
    /// entities decoded.
    public static func plainText(_ markup: String) -> String {
        // Most bodies hold neither; a byte scan answers that without reading characters.
        guard markup.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return markup }
        var output = ""
        var rest = Substring(markup)
        while let open = rest.firstIndex(of: "<") {
            output += decodeEntities(rest[..<open])
            let afterOpen = rest.index(after: open)
            // A tag ends at the first ">"; another "<" first means this one was text. Looking
            // only that far keeps a body of many "<" linear.
            guard let close = rest[afterOpen...].firstIndex(where: { $0 == ">" || $0 == "<" }) else {
                // A lone "<" is text, as a lenient HTML reader treats it.
                output += decodeEntities(rest[open...])
                return output
            }
            let tag = rest[afterOpen..<close]
            guard rest[close] == ">", let name = markupTagName(tag) else {
                // Not markup: the "<" is text, and what follows is read again from after it.
                output += "<"
                rest = rest[afterOpen...]
                continue
            }
            if name == "img", let alt = attribute("alt", in: tag) {
                output += decodeEntities(alt)
            }
            rest = rest[rest.index(after: close)...]
        }
        return output + decodeEntities(rest)
    }

    /// The specification's tags, the only ones taken for markup.
    private static let tagNames: Set<String> = ["b", "i", "u", "a", "img"]

    /// The lowercased name of an opening, closing or self-closing tag of the specification
    /// (`b`, `/b`, `img src="…" /`); `nil` for anything else between `<` and `>`.
    private static func markupTagName(_ tag: Substring) -> String? {
        let body = tag.first == "/" ? tag.dropFirst() : tag
        let name = body.prefix { $0.isLetter }.lowercased()
        guard tagNames.contains(name) else { return nil }
        let after = body.dropFirst(name.count).first
        return after == nil || after?.isWhitespace == true || after == "/" ? name : nil
    }

    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        for quote in ["\"", "'"] {
            guard let range = tag.range(of: name + "=" + quote) else { continue }
            let valueStart = range.upperBound
            guard let valueEnd = tag[valueStart...].firstIndex(of: Character(quote)) else { return nil }
            return tag[valueStart..<valueEnd]
        }
        return nil
    }

    private static let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]

    private static func decodeEntities(_ text: Substring) -> String {
        // Foundation's `contains` for strings searches with a locale; one byte is enough here.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return String(text) }
        var output = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(10).firstIndex(of: ";") else {
                output += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            if let replacement = named[name] ?? numeric(name) {
                output += replacement
            } else {
                output += "&" + name + ";"
            }
            rest = after[after.index(after: semicolon)...]
        }
        return output + rest
    }

    private static func numeric(_ name: Substring) -> String? {
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
