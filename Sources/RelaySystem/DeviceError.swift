import Glibc

/// A device node that could not be opened, said for the person who set the board up: what the
/// device is for, and what fixes it — the driver or the path when it is missing, the group when
/// the agent's user may not open it.
public struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the device is: `the panel`, `the key device`.
    public var role: String
    /// The path that was opened.
    public var path: String
    /// The group whose members may open it (`video`, `input`).
    public var group: String
    /// Where to look for the right path: `ls /dev/fb*`.
    public var listing: String
    /// The failure itself.
    public var cause: SystemError
    /// What else may refuse it, said after the group when it may not be opened.
    public var accessAdvice: String?

    /// A failure to open `path`, the device for `role`.
    public init(role: String, path: String, group: String, listing: String, cause: SystemError, accessAdvice: String? = nil) {
        self.role = role
        self.path = path
        self.group = group
        self.listing = listing
        self.cause = cause
        self.accessAdvice = accessAdvice
    }

    /// `the panel /dev/fb1 does not exist: …`, `may not open the key device …: add the user to group input …`.
    public var description: String {
        switch cause.code {
        case ENOENT, ENODEV, ENXIO:
            "\(role) \(path) does not exist (\(cause.description)): its driver is not loaded, or it has another name "
                + "(\(listing); Hardware/README.md has the overlays)"
        case EBUSY:
            "\(role) \(path) is held by another program (\(cause.description)): stop it (fuser -v \(path) names it)"
        case ENOTTY, EINVAL:
            "\(path) is not \(role) relay-wearable can use (\(cause.description)): name one of \(listing)"
        case EACCES, EPERM, EROFS:
            "relay-wearable may not open \(role) \(path) (\(cause.description)): add its user to group \(group) "
                + "(sudo usermod -aG \(group) $USER, then log in again); the packaged service runs with that group"
                + (accessAdvice.map { "; \($0)" } ?? "")
        default:
            "cannot open \(role) \(path): \(cause.description)"
        }
    }
}
