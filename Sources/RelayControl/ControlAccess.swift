import Glibc
import RelaySystem

/// Who may use a control socket: the user the agent runs as, and, when the agent is given one,
/// the members of a group (`relay` for the packaged system services).
///
/// The socket's mode (0600, or 0660 with a group) already keeps others out; checking the peer's
/// credentials as well means a mistake in the mode, a bind mount or a shared directory cannot hand
/// the agent to someone else. Root is not let in unless it is the owner or in the group: an
/// administrator can become the user, and a root-owned relayctl by accident is more likely than
/// by intent.
public struct ControlAccess: Hashable, Sendable {
    /// The user the agent runs as.
    public var ownerUID: UInt32
    /// The group whose members may connect too, if any.
    public var group: ControlGroup?

    /// Access for `ownerUID` and the members of `group`.
    public init(ownerUID: UInt32, group: ControlGroup? = nil) {
        self.ownerUID = ownerUID
        self.group = group
    }

    /// Whether `peer` may connect; `supplementaryGroups` is asked only when the answer depends on them.
    public func allows(_ peer: PeerCredentials, supplementaryGroups: () -> [UInt32]) -> Bool {
        if peer.uid == ownerUID { return true }
        guard let group else { return false }
        return peer.gid == group.id || supplementaryGroups().contains(group.id)
    }

    /// The refusal a peer that `allows` turned away reads: who is served, and how to become one of them.
    public func refusal(of peer: PeerCredentials) -> String {
        guard let group else {
            return "permission denied: this control socket serves only uid \(ownerUID), you are uid \(peer.uid)"
        }
        return "permission denied: this control socket serves uid \(ownerUID) and the members of group \(group.name); "
            + "you are uid \(peer.uid), not a member: " + ControlGroup.joining(group.name, user: Accounts.userName(peer.uid) ?? "$USER")
    }
}

/// A group by name and id, looked up once when the agent starts.
public struct ControlGroup: Hashable, Sendable {
    /// The group's name, for messages.
    public var name: String
    /// The group's id, for the checks and the socket's ownership.
    public var id: UInt32

    /// Creates a group from a known name and id.
    public init(name: String, id: UInt32) {
        self.name = name
        self.id = id
    }

    /// How a user joins the group `name`, as the advice in a refusal: the command, then a new login
    /// (a running session keeps the groups it started with).
    public static func joining(_ name: String, user: String = "$USER") -> String {
        "join the group (sudo usermod -aG \(name) \(user)) and log in again"
    }

    /// The group called `name` in the group database, or `nil` when there is none.
    public static func named(_ name: String) -> ControlGroup? {
        Accounts.groupID(name).map { ControlGroup(name: name, id: $0) }
    }

    /// The name of the group owning `path` when its mode lets that group in (a service's
    /// `/run/relay`, 0750 `relay:relay`), else `nil`: joining the group would not help.
    public static func owning(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_gid != 0, status.st_mode & 0o050 == 0o050 else { return nil }
        return Accounts.groupName(status.st_gid)
    }
}
