import Glibc
import RelaySystem

/// The directory that holds a control socket (and the loopback framebuffer file): created 0700,
/// or checked when it exists.
public enum ControlDirectory {
    /// Creates `path` (and missing parents) with mode 0700, or checks that an existing one is a
    /// directory this user owns that nobody else can write to: whoever can write there could
    /// replace the socket with their own and read what relayctl sends.
    ///
    /// With a `group`, the directory is made the group's with mode 0750 (created so, or changed
    /// when it is this user's), so that its members can reach a socket in it.
    public static func prepare(_ path: String, ownerUID: UInt32, group: ControlGroup? = nil) throws(ControlError) {
        if path.isEmpty || path == "/" { return }
        var status = stat()
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
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .unsafeDirectory(path: path, reason: "it is not a directory") }
        guard status.st_uid == ownerUID else {
            throw .unsafeDirectory(path: path, reason: "it belongs to uid \(status.st_uid), not to you (uid \(ownerUID))")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw .unsafeDirectory(path: path, reason: "others can write to it (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
        if let group, status.st_gid != group.id || status.st_mode & 0o777 != 0o750 {
            try give(path, to: group, mode: 0o750)
        }
    }

    /// Makes `path` belong to `group` with `mode`: ownership first, so the wider mode never
    /// applies to the group the file had before.
    static func give(_ path: String, to group: ControlGroup, mode: mode_t) throws(ControlError) {
        do {
            try SystemError.retrying("chown(\(path), group \(group.name))") { chown(path, uid_t.max, group.id) }
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
