import Glibc

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
            + "you are uid \(peer.uid), not a member: join the group (sudo usermod -aG \(group.name) \(ControlGroup.userName(peer.uid))) "
            + "and log in again"
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

    /// The group called `name` in the group database, or `nil` when there is none.
    public static func named(_ name: String) -> ControlGroup? {
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = getgrnam_r(name, &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil else { return nil }
        return ControlGroup(name: name, id: entry.gr_gid)
    }

    /// The name of the group owning `path`, when it has one and it is not a user's private group.
    public static func owning(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        var entry = group()
        var found: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrgid_r(status.st_gid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.gr_name else {
            return nil
        }
        // A directory in the group of its owner's own name is private, not shared with a group.
        return status.st_gid == 0 || String(cString: name) == userName(status.st_uid) ? nil : String(cString: name)
    }

    /// The name of user `uid`, for a command to paste, or `$USER` when it has none.
    static func userName(_ uid: UInt32) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &found) == 0, found != nil, let name = entry.pw_name else { return "$USER" }
        return String(cString: name)
    }
}
