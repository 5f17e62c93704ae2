import Foundation
public import Glibc
public import RelaySystem

/// Files only their owner may read: keys and databases. Written atomically (a temporary
/// file in the same folder, fsync, rename), created with mode 0600, and refused when an
/// existing one has looser permissions, because that means someone else may have read it.
enum PrivateFiles {
    static func ensureDirectory(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path) }
            guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: info.st_mode & 0o777) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreate(path, "\(error.localizedDescription)")
        }
        // Set the mode outright: a creation mode passes through the process's umask.
        do {
            try SystemError.retrying("chmod(\(path))") { chmod(path, 0o700) }
        } catch {
            throw .system(error)
        }
    }

    /// The file's bytes, or `nil` if it does not exist.
    static func read(_ path: String) throws(StoreError) -> Data? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: info.st_mode & 0o777) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        return data
    }

    static func write(_ data: Data, to path: String) throws(StoreError) {
        let temporary = path + ".tmp-\(getpid())"
        do throws(SystemError) {
            let descriptor = try SystemError.retrying("open(\(temporary))") {
                open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            }
            defer { close(descriptor) }
            var offset = 0
            while offset < data.count {
                let written = try SystemError.retrying("write(\(temporary))") {
                    data.withUnsafeBytes { raw in
                        Glibc.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                    }
                }
                offset += written
            }
            try SystemError.retrying("fsync(\(temporary))") { fsync(descriptor) }
            try SystemError.retrying("rename(\(path))") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw .system(error)
        }
    }

    /// Creates an empty file of mode 0600 if none exists; refuses an existing one others may read.
    static func ensureFile(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: info.st_mode & 0o777) }
            return
        }
        do throws(SystemError) {
            let descriptor = try SystemError.retrying("open(\(path))") { open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600) }
            close(descriptor)
            // The creation mode passed through the umask, which can only have narrowed it.
        } catch {
            throw .system(error)
        }
    }

    static func remove(_ path: String) throws(StoreError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .system(SystemError(call: "unlink(\(path))", code: errno))
        }
    }
}

/// Why the state directory or a file in it cannot be used.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Others may read it.
    case tooOpen(path: String, mode: mode_t)
    /// A file stands where the folder should be.
    case notADirectory(String)
    /// The folder could not be created.
    case cannotCreate(String, String)
    /// The file exists but cannot be read.
    case unreadable(String)
    /// The file's content is not what it should be.
    case corrupt(String, String)
    /// A system call failed.
    case system(SystemError)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .tooOpen(let path, let mode):
            return "\(path) has mode \(String(mode, radix: 8)); others may read it, so Relay refuses to use it. "
                + "If nobody else could have read it, run: chmod go-rwx \(path)"
        case .notADirectory(let path):
            return "\(path) is not a directory; remove it or choose another state directory (--state-directory, or state_directory in the configuration file)"
        case .cannotCreate(let path, let reason):
            return "cannot create \(path): \(reason); choose another state directory (--state-directory, or state_directory in the configuration file)"
        case .unreadable(let path):
            return "cannot read \(path); check that it belongs to this user"
        case .corrupt(let path, let reason):
            return "\(path) is damaged (\(reason)); unpair and pair again (relayctl unpair, relayctl pair)"
        case .system(let error):
            return error.description
        }
    }
}
