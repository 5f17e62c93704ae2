public import Foundation
import Crypto
import Glibc
import RelaySystem
import RelayWire
import Synchronization

/// Attachments by content: each file once, named by the SHA-256 of its bytes, in the state
/// directory's `attachments` folder (mode 0700; files 0600).
///
/// The phone puts what apps attach here when they post, so a file the app deletes or changes
/// afterwards is still sent as it was. The wearable assembles what the phone sends in a
/// `.part` file beside the final name and renames it into place only when the bytes hash
/// to their name, so a file under a content name is always whole and right.
public struct AttachmentStore: Sendable {
    /// The folder.
    public let directory: String
    /// Shared by the copies of a store, as the folder is.
    private let writes = WriteCount()

    private final class WriteCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// Files written since the store was opened: for a sweeper that should not wait its hour
    /// while an app fills the folder.
    public var filesWritten: Int { writes.value.load(ordering: .relaxed) }

    /// Opens (creating if needed) the `attachments` folder of a state directory.
    public init(in state: StateDirectory) throws(StoreError) {
        directory = state.file("attachments")
        try PrivateFiles.ensureDirectory(directory)
    }

    /// Stores bytes under their hash (a no-op when the same bytes are stored already) and
    /// returns the hash.
    @discardableResult
    public func put(_ bytes: Data) throws(StoreError) -> AttachmentDigest {
        let digest = AttachmentDigest(of: bytes)
        if size(of: digest) != bytes.count {
            try PrivateFiles.write(bytes, to: path(of: digest))
            writes.value.add(1, ordering: .relaxed)
        } else {
            markUsed(digest)
        }
        return digest
    }

    /// Marks a stored file as just used (its modification time now): a sweep spares it as it
    /// spares a file just written, for a notification that refers to it again is on its way
    /// into the centre, which the sweep's list of files in use may not show yet.
    public func markUsed(_ digest: AttachmentDigest) {
        _ = utimensat(AT_FDCWD, path(of: digest), nil, 0)
    }

    /// The stored file's size, or `nil` when it is not stored.
    public func size(of digest: AttachmentDigest) -> Int? {
        var info = stat()
        guard stat(path(of: digest), &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Where the file with this hash is (or would be).
    public func path(of digest: AttachmentDigest) -> String {
        directory + "/" + digest.hex
    }

    /// Up to `count` bytes of a stored file from `offset`, for sending it in chunks.
    public func read(_ digest: AttachmentDigest, offset: Int, count: Int) throws(StoreError) -> Data {
        try Self.withDescriptor(path(of: digest), flags: O_RDONLY) { descriptor throws(SystemError) in
            var buffer = Data(count: count)
            var filled = 0
            while filled < count {
                let read = try SystemError.retrying("pread(\(digest.hex))") {
                    buffer.withUnsafeMutableBytes { raw in
                        pread(descriptor, raw.baseAddress.map { $0 + filled }, count - filled, off_t(offset + filled))
                    }
                }
                if read == 0 { break }
                filled += read
            }
            return buffer.prefix(filled)
        }
    }

    /// The hashes of the stored files.
    public func stored() -> Set<AttachmentDigest> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(names.compactMap(AttachmentDigest.init(hex:)))
    }

    /// Removes every file (and partial file) whose hash is not in `keeping`; returns how many went.
    /// With `modifiedBefore`, files changed since then are spared: one stored a moment ago may
    /// belong to a notification on its way into the centre.
    @discardableResult
    public func sweep(keeping: Set<AttachmentDigest>, modifiedBefore: Date? = nil) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed = 0
        // A file being written (`PrivateFiles.write`'s temporary) is not ours to judge yet.
        for name in names where !name.contains(".tmp-") {
            let hex = name.hasSuffix(Self.partialSuffix) ? String(name.dropLast(Self.partialSuffix.count)) : name
            if let digest = AttachmentDigest(hex: hex), keeping.contains(digest) { continue }
            let path = directory + "/" + name
            if let modifiedBefore {
                var info = stat()
                guard stat(path, &info) == 0, TimeInterval(info.st_mtim.tv_sec) < modifiedBefore.timeIntervalSince1970 else { continue }
            }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    // MARK: Receiving

    /// How many bytes of a file being received are stored so far: where to ask the sender to
    /// go on from after a reconnect.
    public func receivedCount(of digest: AttachmentDigest) -> Int {
        var info = stat()
        guard stat(path(of: digest) + Self.partialSuffix, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// Adds a chunk of a file being received. A chunk that does not start where the stored part
    /// ends is refused (`.outOfOrder`); the last chunk is checked against the hash and the whole
    /// file renamed into place (`.complete`), or thrown away (`.corrupt`).
    public func append(_ digest: AttachmentDigest, offset: Int, totalSize: Int, data: Data) throws(StoreError) -> ChunkResult {
        let partial = path(of: digest) + Self.partialSuffix
        let received = receivedCount(of: digest)
        guard offset == received else { return .outOfOrder(expected: received) }
        guard offset + data.count <= totalSize else {
            unlink(partial)
            return .corrupt("the chunks run past the announced size of \(totalSize) bytes")
        }
        try Self.withDescriptor(partial, flags: O_WRONLY | O_CREAT | O_APPEND) { descriptor throws(SystemError) in
            var written = 0
            while written < data.count {
                written += try SystemError.retrying("write(\(digest.hex).part)") {
                    data.withUnsafeBytes { raw in write(descriptor, raw.baseAddress.map { $0 + written }, raw.count - written) }
                }
            }
            if offset + data.count == totalSize { try SystemError.retrying("fsync(\(digest.hex).part)") { fsync(descriptor) } }
        }
        guard offset + data.count == totalSize else { return .incomplete(received: offset + data.count) }
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: partial))) ?? Data()
        guard AttachmentDigest(of: bytes) == digest else {
            unlink(partial)
            return .corrupt("the received bytes do not match their SHA-256")
        }
        guard rename(partial, path(of: digest)) == 0 else {
            throw .system(SystemError(call: "rename(\(digest.hex).part)", code: errno))
        }
        return .complete
    }

    /// What adding a chunk came to.
    public enum ChunkResult: Sendable, Hashable {
        /// More is to come; this much is stored.
        case incomplete(received: Int)
        /// The file is whole, checked, and under its name.
        case complete
        /// The chunk does not continue the stored part, which ends at `expected`.
        case outOfOrder(expected: Int)
        /// The data was wrong and is gone; ask for the file again.
        case corrupt(String)
    }

    private static let partialSuffix = ".part"

    private static func withDescriptor<T>(
        _ path: String, flags: Int32, _ body: (Int32) throws(SystemError) -> T
    ) throws(StoreError) -> T {
        do throws(SystemError) {
            let descriptor = try SystemError.retrying("open(\(path))") { open(path, flags | O_CLOEXEC, 0o600) }
            defer { close(descriptor) }
            return try body(descriptor)
        } catch {
            throw .system(error)
        }
    }
}

/// An attachment's identity: the SHA-256 of its bytes.
public struct AttachmentDigest: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes.
    public let bytes: Data

    /// The digest of some bytes.
    public init(of data: Data) {
        bytes = Data(SHA256.hash(data: data))
    }

    /// A digest as it travels (32 bytes); `nil` for any other length.
    public init?(bytes: Data) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A digest from 64 hexadecimal digits (a file name); `nil` for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var bytes = Data(capacity: 32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = Self.nibble(utf8[index]), let low = Self.nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// A digest from an attachment URL as the wearable and the phone's store name them,
    /// `sha256:<hex>`; `nil` for any other URL.
    public init?(url: String) {
        guard url.hasPrefix(Self.urlScheme) else { return nil }
        self.init(hex: String(url.dropFirst(Self.urlScheme.count)))
    }

    /// Lower-case hexadecimal.
    public var hex: String { bytes.hexString }

    /// `sha256:<hex>`, the URL of a stored attachment.
    public var url: String { Self.urlScheme + hex }

    /// The hexadecimal digest.
    public var description: String { hex }

    private static let urlScheme = "sha256:"

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
