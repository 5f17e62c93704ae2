import Glibc
import RelaySystem

/// The directory that holds a control socket (and the loopback framebuffer file): created 0700,
/// or checked when it exists.
public enum ControlDirectory {
    /// Creates `path` (and missing parents) with mode 0700, or checks that an existing one is a
    /// directory this user owns that nobody else can write to: whoever can write there could
    /// replace the socket with their own and read what relayctl sends.
    ///
    /// With a `group`, a directory created here is made the group's with mode 0750, so that its
    /// members can reach a socket in it; an existing directory is left as it is.
    public static func prepare(_ path: String, ownerUID: UInt32, group: ControlGroup? = nil) throws(ControlError) {
        if path.isEmpty || path == "/" { return }
        var status = stat()
        var created = false
        if lstat(path, &status) != 0 {
            let code = errno
            guard code == ENOENT else { throw .system(SystemError(call: "lstat(\(path))", code: code)) }
            try prepare(parent(of: path), ownerUID: ownerUID, creatingOnly: true)
            do {
                try SystemError.retrying("mkdir(\(path))") { mkdir(path, 0o700) }
                // mkdir's mode passes through the umask, which another thread may have narrowed
                // (a listener binding under 0177 would leave the folder without its x bit).
                try SystemError.retrying("chmod(\(path))") { chmod(path, 0o700) }
            } catch where error.code == EEXIST {
                // Another process created it between the two calls; check it below like any other.
            } catch {
                throw .system(error)
            }
            guard lstat(path, &status) == 0 else { throw .system(SystemError(call: "lstat(\(path))", code: errno)) }
            created = true
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .unsafeDirectory(path: path, reason: "it is not a directory") }
        guard status.st_uid == ownerUID else {
            throw .unsafeDirectory(path: path, reason: "it belongs to uid \(status.st_uid), not to you (uid \(ownerUID))")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw .unsafeDirectory(path: path, reason: "others can write to it (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
        // Only a directory made just now is given to the group: an existing one (the user's
        // runtime directory, a home) may hold what its mode keeps from that group. systemd's
        // RuntimeDirectory= comes with the group and mode its unit sets.
        if let group, created {
            try give(path, to: group, mode: 0o750)
        }
    }

    /// Makes `path` belong to `group` with `mode`: ownership first, so the wider mode never
    /// applies to the group the file had before.
    /// The ownership is changed only when it differs: a service running with the group as its
    /// own (`Group=relay`) already creates files in it, and its system-call filter denies `chown`.
    static func give(_ path: String, to group: ControlGroup, mode: mode_t) throws(ControlError) {
        do {
            var status = stat()
            try SystemError.retrying("lstat(\(path))") { lstat(path, &status) }
            if status.st_gid != group.id {
                try SystemError.retrying("chown(\(path), group \(group.name))") { lchown(path, uid_t.max, group.id) }
            }
            try SystemError.retrying("chmod(\(path))") { chmod(path, mode) }
        } catch where error.code == EPERM {
            throw .notInGroup(group.name, path: path)
        } catch {
            throw .system(error)
        }
    }

    /// Creates missing ancestors with 0700 without checking existing ones (`/tmp` is shared by design).
    private static func prepare(_ path: String, ownerUID: UInt32, creatingOnly: Bool) throws(ControlError) {
        if path.isEmpty || path == "/" { return }
        var status = stat()
        guard lstat(path, &status) != 0 else { return }
        try prepare(parent(of: path), ownerUID: ownerUID, creatingOnly: true)
        do {
            try SystemError.retrying("mkdir(\(path))") { mkdir(path, 0o700) }
            try SystemError.retrying("chmod(\(path))") { chmod(path, 0o700) }
        } catch where error.code == EEXIST {
        } catch {
            throw .system(error)
        }
    }

    /// The directory part of a path: `/a/b/c.sock` → `/a/b`; `c.sock` → `.`.
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
