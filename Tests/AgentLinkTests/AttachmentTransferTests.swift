import Foundation
import RelayCore
import RelayDisplay
import RelayStore
import RelayTestSupport
import Testing
import WearableUI

/// Attachments from the phone's store to the wearable's, over the link simulator at RFCOMM's
/// pace (Docs/PROTOCOL.md §8.8).
@Suite("Attachments over the link")
struct AttachmentTransferTests {
    /// A PNG of noise, which does not compress: `side`² × 3 bytes and a little more.
    static func noisePNG(side: Int, seed: UInt8) throws -> Data {
        var generator = SeededBytes(seed: seed)
        let bytes = (0..<(side * side * 3)).map { _ in generator.next() }
        guard let image = RGBImage(width: side, height: side, bytes: bytes) else { throw HarnessError("bad image size") }
        return Data(try PNGFile.encode(image))
    }

    static func storedURLs(_ events: [UIEvent]) -> [String] {
        events.compactMap { if case .attachmentStored(let url, _, _) = $0 { url } else { nil } }
    }

    @Test("an image in the phone's store reaches the wearable once, byte for byte, and the screen hears of it with its size")
    func imageArrives() async throws {
        try await AgentLinkHarness.with(maxAttachmentBytes: 1 << 20) { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let png = try Self.noisePNG(side: 40, seed: 1)
            let digest = try harness.phone.attachments.put(png)
            let photo = NotificationAttachment(identifier: "photo", url: digest.url, type: "image/png")
            try harness.owner.post(1, title: "Thai Vacation", attachments: [photo])
            #expect(await harness.screen.wait { Self.storedURLs($0) == [digest.url] })
            #expect(harness.screen.elements.contains { $0 == .attachmentStored(url: digest.url, width: 40, height: 40) })
            let received = try Data(contentsOf: URL(fileURLWithPath: harness.folder + "/wearable/attachments/" + digest.hex))
            #expect(received == png)
            #expect(harness.wearable.attachmentCounts == (stored: 1, waiting: 0))

            // The same image in a second notification is not sent again.
            try harness.owner.post(2, title: "Again", attachments: [photo])
            try harness.owner.post(3, title: "Barrier")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Barrier" } else { false } } })
            #expect(Self.storedURLs(harness.screen.elements).count == 1)

            // Once no notification refers to it, the wearable deletes it.
            try harness.owner.remove(1)
            try harness.owner.remove(2)
            #expect(await harness.screen.wait { $0.contains(.attachmentRemoved(url: digest.url)) })
            #expect(!FileManager.default.fileExists(atPath: harness.folder + "/wearable/attachments/" + digest.hex))
        }
    }

    @Test("a transfer cut by an outage goes on from where it stopped after the reconnect")
    func resumesAfterOutage() async throws {
        try await AgentLinkHarness.with(maxAttachmentBytes: 1 << 20) { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            // About 120 kB: 1.5 s at the simulator's 80 kB/s, time enough to cut it in the middle.
            let png = try Self.noisePNG(side: 200, seed: 2)
            let digest = try harness.phone.attachments.put(png)
            let partial = harness.folder + "/wearable/attachments/" + digest.hex + ".part"
            try harness.owner.post(1, title: "Big", attachments: [NotificationAttachment(identifier: "big", url: digest.url)])
            #expect(await waitFor { Self.fileSize(partial) > 0 })
            #expect(await harness.goOutOfRange())
            let cutAt = Self.fileSize(partial)
            #expect(cutAt > 0 && cutAt < png.count, "cut in the middle")
            #expect(Self.storedURLs(harness.screen.elements).isEmpty)

            harness.outage.end()
            // Had the phone started again from 0, the wearable would refuse the chunks (they do not
            // continue its part file) and the file would never be whole.
            #expect(await harness.screen.wait { Self.storedURLs($0) == [digest.url] })
            let received = try Data(contentsOf: URL(fileURLWithPath: harness.folder + "/wearable/attachments/" + digest.hex))
            #expect(received == png)
            #expect(!FileManager.default.fileExists(atPath: partial))
        }
    }

    @Test("a notification posted while a large image is on its way is shown before the image is whole")
    func alertsDoNotWaitForImages() async throws {
        try await AgentLinkHarness.with(maxAttachmentBytes: 1 << 20) { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            // About 300 kB: four seconds at the simulator's 80 kB/s.
            let png = try Self.noisePNG(side: 320, seed: 4)
            let digest = try harness.phone.attachments.put(png)
            let partial = harness.folder + "/wearable/attachments/" + digest.hex + ".part"
            try harness.owner.post(1, title: "Photo", attachments: [NotificationAttachment(identifier: "photo", url: digest.url)])
            #expect(await waitFor { Self.fileSize(partial) > 0 })
            try harness.owner.post(2, title: "Urgent")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Urgent" } else { false } } })
            // Had the phone queued the whole image on the link, the alert would have come after it.
            #expect(Self.storedURLs(harness.screen.elements).isEmpty, "the image was whole before the alert arrived")
            #expect(Self.fileSize(partial) < png.count / 2, "the alert came early in the transfer")
            #expect(await harness.screen.wait { Self.storedURLs($0) == [digest.url] })
        }
    }

    @Test("an attachment larger than the wearable takes is never asked for")
    func tooLargeIsNotAsked() async throws {
        try await AgentLinkHarness.with(maxAttachmentBytes: 1000) { harness in
            let connected = try await harness.startPaired()
            #expect(connected)
            let digest = try harness.phone.attachments.put(try Self.noisePNG(side: 40, seed: 3))
            try harness.owner.post(1, title: "Too big", attachments: [NotificationAttachment(identifier: "big", url: digest.url)])
            try harness.owner.post(2, title: "Barrier")
            #expect(await harness.screen.wait { $0.contains { if case .upsert(let n, _) = $0 { n.content.title == "Barrier" } else { false } } })
            #expect(harness.wearable.attachmentCounts == (stored: 0, waiting: 1))
            #expect(!FileManager.default.fileExists(atPath: harness.folder + "/wearable/attachments/" + digest.hex + ".part"))
        }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}

/// Polls a condition on the file system, which sends no events, every 10 ms for up to 20 s.
func waitFor(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return false
}

/// Reproducible bytes (xorshift), so a failing image can be made again.
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt8) { state = 0x9E37_79B9_7F4A_7C15 ^ UInt64(seed) }

    mutating func next() -> UInt8 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}
