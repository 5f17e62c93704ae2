public import RelayDBus

/// Follows the do not disturb of the desktop's own notification server, which relay-phone
/// monitors (Docs/PHONE.md, monitor mode): KDE Plasma's `Inhibited` property on
/// `org.freedesktop.Notifications`, and dunst's `paused` (`dunstctl set-paused`) on
/// `org.dunstproject.cmd0`, both at `/org/freedesktop/Notifications`. A server with neither
/// (GNOME Shell keeps its banners setting in GSettings, not on the bus) is simply not followed.
public final class DesktopDoNotDisturbWatch: Sendable {
    /// A desktop's do not disturb as one server exposes it.
    struct Source: Sendable {
        let interface: String
        let property: String
        /// How the source is named in decisions: `do not disturb (from KDE Plasma)`.
        let desktop: String
    }

    static let sources = [
        Source(interface: "org.freedesktop.Notifications", property: "Inhibited", desktop: "KDE Plasma"),
        Source(interface: "org.dunstproject.cmd0", property: "paused", desktop: "dunst"),
    ]
    static let path = "/org/freedesktop/Notifications"
    static let busName = "org.freedesktop.Notifications"

    private let feed: SignalFeed
    private let task: Task<Void, Never>

    private init(feed: SignalFeed, task: Task<Void, Never>) {
        self.feed = feed
        self.task = task
    }

    /// Reads each source once, then follows its changes on `connection`; `changed` hears the
    /// desktop's name and whether its do not disturb is on, first for each source the server
    /// has, then at each change, in the order the bus delivers them. When the server leaves or
    /// another takes the name, every source counts as off and the new owner's are read.
    public static func start(
        on connection: DBusConnection, changed: @escaping @Sendable (_ desktop: String, _ on: Bool) -> Void
    ) async throws -> DesktopDoNotDisturbWatch {
        // Subscribed before the first readings, so a change between them is not missed; in one
        // feed, so that an owner change cannot overtake the old owner's last property change.
        let feed = try await SignalFeed.open(
            on: connection, rules: [.propertiesChanged(sender: busName, path: path), .nameOwnerChanged(name: busName)])
        await read(on: connection, changed)
        let task = Task {
            for await message in feed.messages {
                if SignalFeed.ownerChange(message, of: busName) != nil {
                    for source in sources { changed(source.desktop, false) }
                    await read(on: connection, changed)
                    continue
                }
                guard message.path?.rawValue == path, let change = SignalFeed.propertiesChanged(message),
                    let source = sources.first(where: { $0.interface == change.interface }),
                    case .boolean(let on)? = change.changed[source.property]
                else { continue }
                changed(source.desktop, on)
            }
        }
        return DesktopDoNotDisturbWatch(feed: feed, task: task)
    }

    /// Reads each source the current owner has.
    private static func read(on connection: DBusConnection, _ changed: @Sendable (String, Bool) -> Void) async {
        for source in sources {
            // A server without the property answers with an error: it is not that desktop.
            if case .boolean(let on)? = try? await connection.property(source.property, of: source.interface, at: path, on: busName) {
                changed(source.desktop, on)
            }
        }
    }

    /// Stops following.
    public func stop() {
        task.cancel()
        feed.close()
    }
}
