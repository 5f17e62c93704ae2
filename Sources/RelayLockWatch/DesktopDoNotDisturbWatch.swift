public import RelayDBus

/// Follows the do not disturb of the desktop beside which relay-phone monitors (Docs/PHONE.md,
/// monitor mode): KDE Plasma's `Inhibited` property on `org.freedesktop.Notifications`, dunst's
/// `paused` (`dunstctl set-paused`) on `org.dunstproject.cmd0`, both at
/// `/org/freedesktop/Notifications`, and GNOME's `show-banners` key of
/// `org.gnome.desktop.notifications`, which GNOME keeps in GSettings and the Settings portal
/// (`org.freedesktop.portal.Settings`) publishes on the bus. A desktop with none of them is
/// simply not followed.
public final class DesktopDoNotDisturbWatch: Sendable {
    /// A desktop's do not disturb as a property of its notification server.
    struct ServerProperty: Sendable {
        let interface: String
        let property: String
        /// How the source is named in decisions: `do not disturb (from KDE Plasma)`.
        let desktop: String
    }

    /// A desktop's do not disturb as a setting the Settings portal publishes.
    struct PortalSetting: Sendable {
        let namespace: String
        let key: String
        let desktop: String
        /// Whether do not disturb is on when the setting has `value`.
        let isOn: @Sendable (Bool) -> Bool
    }

    static let serverProperties = [
        ServerProperty(interface: "org.freedesktop.Notifications", property: "Inhibited", desktop: "KDE Plasma"),
        ServerProperty(interface: "org.dunstproject.cmd0", property: "paused", desktop: "dunst"),
    ]
    static let server = (name: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications")

    /// GNOME's do not disturb hides the banners: `show-banners` false.
    static let portalSettings = [
        PortalSetting(namespace: "org.gnome.desktop.notifications", key: "show-banners", desktop: "GNOME") { !$0 }
    ]
    static let portal = (
        name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
        interface: "org.freedesktop.portal.Settings"
    )

    private let feed: SignalFeed
    private let task: Task<Void, Never>

    private init(feed: SignalFeed, task: Task<Void, Never>) {
        self.feed = feed
        self.task = task
    }

    /// Reads each source once, then follows its changes on `connection`; `changed` hears the
    /// desktop's name and whether its do not disturb is on, first for each source the desktop
    /// has, then at each change, in the order the bus delivers them. When a service leaves or
    /// another takes its name, its sources count as off and the new owner's are read.
    /// `serverReplaced` hears when the notification server left or another took its name,
    /// before its sources count as off.
    public static func start(
        on connection: DBusConnection, serverReplaced: @escaping @Sendable () -> Void = {},
        changed: @escaping @Sendable (_ desktop: String, _ on: Bool) -> Void
    ) async throws -> DesktopDoNotDisturbWatch {
        // Subscribed before the first readings, so a change between them is not missed; in one
        // feed, so that an owner change cannot overtake the old owner's last change.
        let feed = try await SignalFeed.open(
            on: connection,
            rules: [
                .propertiesChanged(sender: server.name, path: server.path), .nameOwnerChanged(name: server.name),
                .signal(sender: portal.name, interface: portal.interface, member: "SettingChanged", path: portal.path),
                .nameOwnerChanged(name: portal.name),
            ])
        await readServer(on: connection, changed)
        await readPortal(on: connection, changed)
        let task = Task {
            for await message in feed.messages {
                if SignalFeed.ownerChange(message, of: server.name) != nil {
                    serverReplaced()
                    for source in serverProperties { changed(source.desktop, false) }
                    await readServer(on: connection, changed)
                    // The new server may be GNOME's, or no longer be.
                    for setting in portalSettings { changed(setting.desktop, false) }
                    await readPortal(on: connection, changed)
                } else if let owner = SignalFeed.ownerChange(message, of: portal.name) {
                    // A portal that left takes GNOME's state with it; one that came is read.
                    if owner == nil {
                        for setting in portalSettings { changed(setting.desktop, false) }
                    } else {
                        await readPortal(on: connection, changed)
                    }
                } else if let (desktop, on) = serverChange(message) ?? portalChange(message) {
                    changed(desktop, on)
                }
            }
        }
        return DesktopDoNotDisturbWatch(feed: feed, task: task)
    }

    /// Reads each property the current notification server has.
    private static func readServer(on connection: DBusConnection, _ changed: @Sendable (String, Bool) -> Void) async {
        for source in serverProperties {
            // A server without the property answers with an error: it is not that desktop.
            if case .boolean(let on)? = try? await connection.property(
                source.property, of: source.interface, at: server.path, on: server.name)
            {
                changed(source.desktop, on)
            }
        }
    }

    /// Reads each setting the Settings portal publishes: `ReadOne` (version 2 of the
    /// interface), else `Read`, which wraps the value in one more variant. Only under GNOME's
    /// notification server (another desktop's portal may publish GNOME's settings too, unused
    /// there), and only from a portal already running: a call would start one.
    private static func readPortal(on connection: DBusConnection, _ changed: @Sendable (String, Bool) -> Void) async {
        guard await isGNOMEServer(on: connection),
            case .boolean(true)? = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "NameHasOwner",
                arguments: [.string(portal.name)], timeout: .seconds(5)
            ).first
        else { return }
        for setting in portalSettings {
            for method in ["ReadOne", "Read"] {
                // A desktop without the setting answers with an error (or there is no portal).
                guard
                    let reply = try? await connection.call(
                        destination: portal.name, path: portal.path, interface: portal.interface, method: method,
                        arguments: [.string(setting.namespace), .string(setting.key)], timeout: .seconds(5))
                else { continue }
                if case .boolean(let value)? = reply.first?.unwrappingVariant { changed(setting.desktop, setting.isOn(value)) }
                break
            }
        }
    }

    /// Whether the notification server is GNOME Shell's or Phosh's, by the name it gives
    /// (`GetServerInformation`: "gnome-shell", "Phosh").
    static func isGNOMEServer(on connection: DBusConnection) async -> Bool {
        guard
            let reply = try? await connection.call(
                destination: server.name, path: server.path, interface: server.name, method: "GetServerInformation", timeout: .seconds(5)),
            case .string(let name)? = reply.first
        else { return false }
        return ["gnome-shell", "phosh"].contains(name.lowercased())
    }

    /// The desktop and its state when `message` changes a followed server property.
    private static func serverChange(_ message: DBusMessage) -> (String, Bool)? {
        guard message.path?.rawValue == server.path, let change = SignalFeed.propertiesChanged(message),
            let source = serverProperties.first(where: { $0.interface == change.interface }),
            case .boolean(let on)? = change.changed[source.property]
        else { return nil }
        return (source.desktop, on)
    }

    /// The desktop and its state when `message` is the portal's `SettingChanged` for a followed setting.
    private static func portalChange(_ message: DBusMessage) -> (String, Bool)? {
        guard message.member == "SettingChanged", message.interface == portal.interface,
            message.path?.rawValue == portal.path, message.arguments.count == 3,
            case .string(let namespace) = message.arguments[0], case .string(let key) = message.arguments[1],
            let setting = portalSettings.first(where: { $0.namespace == namespace && $0.key == key }),
            case .boolean(let value) = message.arguments[2].unwrappingVariant
        else { return nil }
        return (setting.desktop, setting.isOn(value))
    }

    /// Stops following.
    public func stop() {
        task.cancel()
        feed.close()
    }
}
