import Glibc

/// The user and group databases (`getpwnam_r` and friends), by name and by id; each answers
/// `nil` for an entry that does not exist or cannot be read.
public enum Accounts {
    /// The name of user `uid`.
    public static func userName(_ uid: UInt32) -> String? {
        lookUp(passwd(), { getpwuid_r(uid, &$0, $1.baseAddress!, $1.count, &$2) }) { $0.pw_name.map { String(cString: $0) } }
    }

    /// The id of the user called `name`.
    public static func userID(_ name: String) -> UInt32? {
        lookUp(passwd(), { getpwnam_r(name, &$0, $1.baseAddress!, $1.count, &$2) }) { $0.pw_uid }
    }

    /// The name of group `gid`.
    public static func groupName(_ gid: UInt32) -> String? {
        lookUp(group(), { getgrgid_r(gid, &$0, $1.baseAddress!, $1.count, &$2) }) { $0.gr_name.map { String(cString: $0) } }
    }

    /// The id of the group called `name`.
    public static func groupID(_ name: String) -> UInt32? {
        lookUp(group(), { getgrnam_r(name, &$0, $1.baseAddress!, $1.count, &$2) }) { $0.gr_gid }
    }

    /// Runs one `get…_r` call and reads the entry while the buffer its strings point into lives.
    /// A buffer too small for the entry (`ERANGE`: a group with thousands of members) is doubled
    /// and the call made again, up to 16 MiB; a call interrupted by a signal is made again.
    static func lookUp<Entry, Value>(
        _ empty: Entry,
        _ call: (inout Entry, UnsafeMutableBufferPointer<CChar>, inout UnsafeMutablePointer<Entry>?) -> Int32,
        _ read: (Entry) -> Value?
    ) -> Value? {
        var size = 16_384
        while size <= 16 << 20 {
            var entry = empty
            var found: UnsafeMutablePointer<Entry>?
            var buffer = [CChar](repeating: 0, count: size)
            let (status, value) = buffer.withUnsafeMutableBufferPointer { buffer -> (Int32, Value?) in
                let status = call(&entry, buffer, &found)
                return (status, status == 0 && found != nil ? read(entry) : nil)
            }
            switch status {
            case ERANGE: size *= 2
            case EINTR: continue
            default: return value
            }
        }
        return nil
    }
}
