import Foundation
import Glibc
import RelayStore
import Testing

@Suite("The attachment store")
struct AttachmentStoreTests {
    static func withStore(_ body: (AttachmentStore, String) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "relay-attachments-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = StateDirectory(path: folder)
        try state.prepare()
        try body(try AttachmentStore(in: state), folder + "/attachments")
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test("files are stored once under the SHA-256 of their bytes, private to their owner")
    func putNamesByContent() throws {
        try Self.withStore { store, folder in
            let bytes = Data("a sunset".utf8)
            let digest = try store.put(bytes)
            #expect(digest.hex == "086c30b6f70a6e1c3d893782abb95e01bd034562c82a4485245928ab1cb9fa08")
            #expect(digest == AttachmentDigest(of: bytes))
            #expect(store.size(of: digest) == bytes.count)
            #expect(try store.put(bytes) == digest)
            #expect(store.stored() == [digest])
            // Counted once, by every copy of the store: what the phone's sweeper watches.
            let copy = store
            _ = try copy.put(Data("a sunrise".utf8))
            #expect(store.filesWritten == 2)
            store.sweep(keeping: [digest])
            #expect(Self.mode(folder) == 0o700)
            #expect(Self.mode(store.path(of: digest)) == 0o600)
            #expect(try store.read(digest, offset: 2, count: 3) == Data("sun".utf8))
            #expect(try store.read(digest, offset: 6, count: 100) == Data("et".utf8))
        }
    }

    @Test("a digest reads back from its hex and its URL, and nothing else parses as one")
    func digestForms() throws {
        let digest = AttachmentDigest(of: Data("x".utf8))
        #expect(AttachmentDigest(hex: digest.hex) == digest)
        #expect(AttachmentDigest(hex: digest.hex.uppercased()) == digest)
        #expect(AttachmentDigest(url: digest.url) == digest)
        #expect(digest.url.hasPrefix("sha256:"))
        #expect(AttachmentDigest(hex: String(digest.hex.dropLast())) == nil)
        #expect(AttachmentDigest(hex: String(digest.hex.dropLast()) + "g") == nil)
        #expect(AttachmentDigest(url: "/tmp/" + digest.hex) == nil)
        #expect(AttachmentDigest(bytes: Data(count: 31)) == nil)
    }

    @Test("chunks in order make the file, checked against its hash; a gap or a wrong byte is refused")
    func receiving() throws {
        try Self.withStore { store, _ in
            let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            let digest = AttachmentDigest(of: bytes)
            #expect(try store.append(digest, offset: 0, totalSize: bytes.count, data: bytes.prefix(4096)) == .incomplete(received: 4096))
            #expect(store.receivedCount(of: digest) == 4096)
            #expect(try store.append(digest, offset: 8192, totalSize: bytes.count, data: bytes.suffix(from: 8192)) == .outOfOrder(expected: 4096))
            #expect(try store.append(digest, offset: 4096, totalSize: bytes.count, data: bytes[4096..<8192]) == .incomplete(received: 8192))
            #expect(store.size(of: digest) == nil, "not stored before it is whole")
            #expect(try store.append(digest, offset: 8192, totalSize: bytes.count, data: bytes.suffix(from: 8192)) == .complete)
            #expect(store.size(of: digest) == bytes.count)
            #expect(store.receivedCount(of: digest) == 0)

            var wrong = bytes
            wrong[5000] ^= 1
            let other = AttachmentDigest(of: bytes + Data([1]))
            _ = try store.append(other, offset: 0, totalSize: wrong.count, data: wrong.prefix(5001))
            guard case .corrupt = try store.append(other, offset: 5001, totalSize: wrong.count, data: wrong.suffix(from: 5001)) else {
                Issue.record("bytes that do not hash to the name were accepted")
                return
            }
            #expect(store.size(of: other) == nil)
            #expect(store.receivedCount(of: other) == 0, "the bad part is thrown away")
            guard case .corrupt = try store.append(other, offset: 0, totalSize: 10, data: Data(count: 11)) else {
                Issue.record("a chunk past the announced size was accepted")
                return
            }
        }
    }

    @Test("a sweep keeps what is referred to and deletes the rest, partial files included")
    func sweep() throws {
        try Self.withStore { store, _ in
            let kept = try store.put(Data("kept".utf8))
            let dropped = try store.put(Data("dropped".utf8))
            let partial = AttachmentDigest(of: Data("partial!".utf8))
            _ = try store.append(partial, offset: 0, totalSize: 8, data: Data("part".utf8))
            #expect(store.sweep(keeping: [kept]) == 2)
            #expect(store.stored() == [kept])
            #expect(store.size(of: dropped) == nil)
            #expect(store.receivedCount(of: partial) == 0)
        }
    }

    @Test("a file stored again (or marked used) counts as new for the sweep's grace")
    func storingAgainRenewsTheGrace() throws {
        try Self.withStore { store, _ in
            let bytes = Data("an avatar posted again".utf8)
            let digest = try store.put(bytes)
            // An hour old, then posted again by another notification.
            var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
            #expect(utimensat(AT_FDCWD, store.path(of: digest), &times, 0) == 0)
            #expect(try store.put(bytes) == digest)
            #expect(store.sweep(keeping: [], modifiedBefore: Date().addingTimeInterval(-60)) == 0)
            #expect(utimensat(AT_FDCWD, store.path(of: digest), &times, 0) == 0)
            store.markUsed(digest)
            #expect(store.sweep(keeping: [], modifiedBefore: Date().addingTimeInterval(-60)) == 0)
            #expect(store.stored() == [digest])
        }
    }

    @Test("a sweep with a grace period spares files stored within it")
    func sweepSparesNewFiles() throws {
        try Self.withStore { store, _ in
            let fresh = try store.put(Data("just stored".utf8))
            #expect(store.sweep(keeping: [], modifiedBefore: Date().addingTimeInterval(-600)) == 0)
            #expect(store.stored() == [fresh])
            #expect(store.sweep(keeping: [], modifiedBefore: Date().addingTimeInterval(60)) == 1)
            #expect(store.stored().isEmpty)
        }
    }
}
