import GRDB

/// Tells a failure of the storage itself (a full or read-only disk, an I/O error, a damaged
/// file) from a write refused for what it held (a constraint, a gap in a log's sequence):
/// after the first, nothing written can be trusted to land; the second is the caller's to handle.
public enum StorageFailure {
    /// Whether `error` is a failure of the storage itself.
    public static func isStorageFailure(_ error: any Error) -> Bool {
        // `RelayDatabase.syncLog` and the file helpers report system calls that failed.
        if error is StoreError { return true }
        guard let error = error as? DatabaseError else { return false }
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_PERM,
            .SQLITE_NOMEM:
            return true
        default:
            return false
        }
    }
}
