import Foundation
import PhoneAgent
import RelayCore
import RelayDisplay
import RelayFreedesktop
import RelayStore
import Testing

@Suite("Taking attached images into the phone's store")
struct AttachmentIngestTests {
    static func withIngest(_ body: (AttachmentIngest, String) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "relay-ingest-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = StateDirectory(path: folder + "/state")
        try state.prepare()
        try body(AttachmentIngest(store: try AttachmentStore(in: state)), folder)
    }

    /// A horizontal gradient, wide and flat like a photo of a sunset.
    static func gradient(width: Int, height: Int) throws -> RGBImage {
        var bytes: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { bytes += [UInt8(x * 255 / max(1, width - 1)), 80, 40] }
        }
        guard let image = RGBImage(width: width, height: height, bytes: bytes) else { throw IngestTestError() }
        return image
    }

    @Test("a PNG file is reduced to fit 320×320, stored by content, and named sha256: in the notification")
    func pngFile() throws {
        try Self.withIngest { ingest, folder in
            let path = folder + "/sunset.png"
            try PNGFile.write(try Self.gradient(width: 960, height: 640), to: path)
            let (taken, notes) = ingest.take([NotificationAttachment(identifier: "photo", url: "file://" + path)])
            #expect(notes.isEmpty)
            let attachment = try #require(taken.first)
            #expect(attachment.identifier == "photo")
            #expect(attachment.type == "image/png")
            let digest = try #require(AttachmentDigest(url: attachment.url))
            let stored = try PNGFile.read(from: ingest.store.path(of: digest))
            #expect(stored.width == 320 && stored.height == 213 || stored.width == 320 && stored.height == 214)

            // The app's file may go: the store has its own copy. Taking the URL in again changes nothing.
            try FileManager.default.removeItem(atPath: path)
            #expect(ingest.take(taken).attachments == taken)
        }
    }

    @Test("a path to something that is not a regular file (a FIFO nobody writes, /dev/zero) is refused at once, not read")
    func onlyRegularFiles() throws {
        try Self.withIngest { ingest, folder in
            let fifo = folder + "/pipe.png"
            #expect(mkfifo(fifo, 0o600) == 0)
            for path in [fifo, "/dev/zero", folder] {
                let (taken, notes) = ingest.take([NotificationAttachment(identifier: "odd", url: path, type: "image/png")])
                #expect(taken.allSatisfy { AttachmentDigest(url: $0.url) == nil }, "\(path) was taken in")
                #expect(notes.count == 1 && notes.allSatisfy { $0.contains("stays on the phone") }, "\(path): \(notes)")
            }
        }
    }

    @Test("a JPEG photo is taken in as a PNG the wearable can read")
    func jpegFile() throws {
        try Self.withIngest { ingest, folder in
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../RelayDisplayTests/Fixtures/python-logo-16.jpg").standardized.path
            let path = folder + "/logo.jpg"
            try FileManager.default.copyItem(atPath: fixture, toPath: path)
            let (taken, notes) = ingest.take([NotificationAttachment(identifier: "logo", url: path, type: "image/jpeg")])
            #expect(notes.isEmpty, "\(notes)")
            let attachment = try #require(taken.first)
            #expect(attachment.type == "image/png")
            let stored = try PNGFile.read(from: ingest.store.path(of: try #require(AttachmentDigest(url: attachment.url))))
            #expect(stored.width == 16 && stored.height == 16)
        }
    }

    @Test("what cannot be taken in stays as it was, with a note that says why")
    func refusals() throws {
        try Self.withIngest { ingest, folder in
            let text = folder + "/notes.txt"
            try Data("not a picture".utf8).write(to: URL(fileURLWithPath: text))
            let attachments = [
                NotificationAttachment(identifier: "missing", url: folder + "/missing.png"),
                NotificationAttachment(identifier: "text", url: text),
                NotificationAttachment(identifier: "web", url: "https://example.org/a.png"),
                NotificationAttachment(identifier: "gone", url: AttachmentDigest(of: Data("never stored".utf8)).url),
            ]
            let (taken, notes) = ingest.take(attachments)
            #expect(taken == attachments)
            #expect(notes.count == 4)
            #expect(notes[0].contains("cannot read"))
            #expect(notes[1].contains("not a PNG or JPEG image"))
            #expect(notes[2].contains("not a local file"))
            #expect(notes[3].contains("is stored on the phone"))
            #expect(ingest.store.stored().isEmpty)
        }
    }

    @Test("image-data of a Notify call becomes the notification's image; image-path is used when there is none")
    func notifyCall() throws {
        try Self.withIngest { ingest, folder in
            // 3×2 RGBA with a padded row stride of 16 bytes.
            var pixels = Data(count: 32)
            for index in 0..<6 {
                let offset = (index / 3) * 16 + (index % 3) * 4
                pixels[offset] = 200
                pixels[offset + 3] = 255
            }
            var hints = NotificationHints()
            hints.imageData = NotificationHints.ImageData(
                width: 3, height: 2, rowStride: 16, hasAlpha: true, bitsPerSample: 8, channels: 4, data: pixels)
            let call = ingest.takeImages(of: PostedNotification(appName: "Photos", summary: "New photo", hints: hints))
            let attachment = try #require(call.attachments?.first)
            #expect(attachment.identifier == FreedesktopMapping.imageIdentifier)
            let stored = try PNGFile.read(from: ingest.store.path(of: try #require(AttachmentDigest(url: attachment.url))))
            #expect(stored.width == 3 && stored.height == 2)
            #expect(stored[2, 1] == Color(red: 200, green: 0, blue: 0))
            #expect(FreedesktopMapping.content(of: call).attachments == [attachment])

            var broken = hints
            broken.imageData?.rowStride = 4
            let refused = ingest.takeImages(of: PostedNotification(appName: "Photos", summary: "Broken", hints: broken))
            #expect(refused.attachments == nil)
            #expect(refused.notes.contains { $0.contains("image-data") })

            let path = folder + "/icon.png"
            try PNGFile.write(try Self.gradient(width: 10, height: 10), to: path)
            var pathHints = NotificationHints()
            pathHints.imagePath = path
            let byPath = ingest.takeImages(of: PostedNotification(appName: "Photos", summary: "By path", hints: pathHints))
            #expect(byPath.attachments?.first.flatMap { AttachmentDigest(url: $0.url) } != nil)
        }
    }
}

struct IngestTestError: Error {}
