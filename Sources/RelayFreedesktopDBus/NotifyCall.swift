import RelayCore
public import RelayDBus
public import RelayFreedesktop

/// Reads the arguments of `org.freedesktop.Notifications.Notify` (`susssasa{sv}i`)
/// defensively, into a ``PostedNotification``: the call comes from any process on the bus.
public enum NotifyCall {
    /// The signature of `Notify`'s arguments.
    public static let signature = "susssasa{sv}i"

    /// Reads the arguments of a `Notify` call from decoded values. Wrong types are an error (the
    /// caller gets `InvalidArgs`); oversized values are clamped with a note.
    public static func decode(arguments: [DBusValue]) throws(DBusError) -> PostedNotification {
        var reader = DBusArgumentReader(arguments)
        return try decode(reading: &reader)
    }

    /// Reads the arguments of a `Notify` call, as a server reads them from the message. Wrong
    /// types are an error (the caller gets `InvalidArgs`); oversized values are clamped with a note.
    public static func decode(reading arguments: inout DBusArgumentReader) throws(DBusError) -> PostedNotification {
        let appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String, timeout: Int32
        var strings: [String] = []
        var hintEntries: [String: DBusValue] = [:]
        do throws(DBusError) {
            appName = try arguments.read(String.self)
            replacesID = try arguments.read(UInt32.self)
            appIcon = try arguments.read(String.self)
            summary = try arguments.read(String.self)
            body = try arguments.read(String.self)
            try arguments.readArray { elements throws(DBusError) in
                while !elements.isAtEnd { strings.append(try elements.read(String.self)) }
            }
            try arguments.readDictionary { entry throws(DBusError) in
                let key = try entry.read(String.self)
                hintEntries[key] = try entry.readValue()
            }
            timeout = try arguments.read(Int32.self)
            guard arguments.isAtEnd else { throw DBusError(.invalidArgs, "there are more than 8 arguments") }
        } catch {
            throw DBusError(.invalidArgs, "Notify takes (\(Self.signature)): \(error.message)")
        }
        var notes: [String] = []
        if strings.count % 2 != 0 {
            notes.append("actions: an odd number of strings; the last key has no label and was dropped")
            strings.removeLast()
        }
        var actions = stride(from: 0, to: strings.count, by: 2).map { PostedNotification.Action(key: strings[$0], label: strings[$0 + 1]) }
        let kept = PostedNotification.kept(actions)
        if kept.count < actions.count {
            notes.append(
                "actions: \(actions.count) sent; kept \(kept.count): the click (default) and the first \(ModelLimits.actionsPerCategory) buttons, as many as the wearable shows")
            actions = kept
        }
        let hints = NotificationHints(entries: hintEntries)
        var posted = PostedNotification(
            appName: clamp(appName, "app_name", ModelLimits.titleBytes, &notes), replacesID: replacesID,
            appIcon: clamp(appIcon, "app_icon", ModelLimits.urlBytes, &notes),
            summary: shorten(summary, "summary", ModelLimits.titleBytes, &notes),
            body: boundedMarkup(body, &notes),
            actions: actions, hints: hints, expireTimeout: timeout)
        posted.notes = notes + hints.notes
        return posted
    }

    private static func clamp(_ text: String, _ field: String, _ limit: Int, _ notes: inout [String]) -> String {
        guard text.utf8.count > limit else { return text }
        notes.append("\(field): \(text.utf8.count) bytes clamped to \(limit)")
        return text.truncated(toUTF8Bytes: limit)
    }

    /// Text for people, shortened at a word with "…" to `limit` bytes; the note says what is kept.
    private static func shorten(_ text: String, _ field: String, _ limit: Int, _ notes: inout [String]) -> String {
        guard text.utf8.count > limit else { return text }
        let kept = text.shortened(toUTF8Bytes: limit)
        notes.append("\(field): \(text.utf8.count) bytes sent; the first \(kept.utf8.count) kept, cut at a word with …")
        return kept
    }

    /// The body's markup, bounded so that reading it costs little: markup can be several times
    /// longer than its text, so four times the body's limit is kept here, and the text itself is
    /// shortened once, by `FreedesktopMapping.displayedBody`, which the note reports.
    private static func boundedMarkup(_ body: String, _ notes: inout [String]) -> String {
        let bounded = body.truncated(toUTF8Bytes: 4 * ModelLimits.bodyBytes)
        let shown = FreedesktopMapping.displayedBody(of: bounded)
        if shown.hasSuffix("…"), BodyMarkup.plainText(bounded) != shown {
            notes.append("body: \(body.utf8.count) bytes sent; the first \(shown.utf8.count) bytes of its text kept, cut at a word with …")
        }
        return bounded
    }
}
