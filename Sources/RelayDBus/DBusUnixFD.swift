#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An owned Unix file descriptor carried by a D-Bus message (type `h`).
///
/// The descriptor is closed when the last reference goes away, so a descriptor received in a message
/// never leaks, and one being sent stays open until libdbus has duplicated it into the message.
/// Use ``duplicate()`` to obtain a descriptor that outlives this object.
public final class DBusUnixFD: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor number. Do not close it; it belongs to this object.
    public let fileDescriptor: Int32

    /// Takes ownership of `fileDescriptor`, which is closed when this object is released.
    public init(takingOwnershipOf fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Duplicates `fileDescriptor` (close-on-exec); the caller keeps ownership of the original.
    public convenience init(duplicating fileDescriptor: Int32) throws {
        self.init(takingOwnershipOf: try Self.duplicate(fileDescriptor))
    }

    deinit {
        close(fileDescriptor)
    }

    /// Returns a new close-on-exec duplicate that the caller owns and must close.
    public func duplicate() throws -> Int32 {
        try Self.duplicate(fileDescriptor)
    }

    /// Identity: two objects are equal only if they are the same owner.
    public static func == (lhs: DBusUnixFD, rhs: DBusUnixFD) -> Bool { lhs === rhs }

    /// Hashes the object identity, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// `fd N`.
    public var description: String { "fd \(fileDescriptor)" }

    private static func duplicate(_ fileDescriptor: Int32) throws -> Int32 {
        let copy = fcntl(fileDescriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw DBusError(.ioError, "Cannot duplicate file descriptor \(fileDescriptor): errno \(errno)")
        }
        return copy
    }
}
