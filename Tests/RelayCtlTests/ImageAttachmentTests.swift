import Foundation
import RelayDBus
import RelayDisplay
import RelayTestSupport
import Synchronization
import Testing

/// An image from notify-send's `image-path` to the wearable's long look, with both agents as
/// processes (Docs/PHONE.md, "Images").
@Suite struct ImageAttachmentTests {
    /// Orange above, deep blue below: easy to find again in a screenshot.
    static func picture(width: Int, height: Int) throws -> RGBImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for _ in 0..<width { bytes += y < height / 2 ? [250, 150, 40] : [30, 30, 120] }
        }
        guard let image = RGBImage(width: width, height: height, bytes: bytes) else { throw SoakFailure("bad picture size") }
        return image
    }

    static func orangePixels(_ image: RGBImage) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                if pixel.red > 230, (130...170).contains(pixel.green), pixel.blue < 60 { count += 1 }
            }
        }
        return count
    }

    @Test(.timeLimit(.minutes(2))) func imagePathReachesTheLongLook() async throws {
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            do {
                try await run(rig, bus: bus)
            } catch {
                await rig.stopAll()
                throw error
            }
            await rig.stopAll()
        }
    }

    @Test(.timeLimit(.minutes(2))) func aLargeImageDoesNotHoldUpOtherCalls() async throws {
        try await withRelayPhone { bus, _, _ in
            let directory = try Self.largePicture()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/large.png"
            let camera = try await bus.connect()
            let chat = try await bus.connect()
            let answered = Mutex<[String]>([])
            let large = Task {
                _ = try await Self.notify(camera, "Large", hints: ["image-path": .string(path)])
                answered.withLock { $0.append("large") }
            }
            // Calls from one connection are handled in order: once this one is answered, the
            // large one has reached the phone's bus thread.
            _ = try await camera.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "GetServerInformation")
            _ = try await Self.notify(chat, "Small", hints: [:])
            answered.withLock { $0.append("small") }
            try await large.value
            let order = answered.withLock { $0 }
            #expect(order == ["small", "large"], "another client's notification waited for the image")
        }
    }

    @Test(.timeLimit(.minutes(2))) func aCloseDoesNotOvertakeTheUpdateBeforeIt() async throws {
        try await withRelayPhone { bus, _, socket in
            let directory = try Self.largePicture()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/large.png"
            let app = try await bus.connect()
            let id = try await Self.notify(app, "Upload", hints: [:])
            // The update with its picture, then the close, sent together as an app may: the
            // close must find the update done, and close it for good.
            // Started at once on this thread, so the update leaves before the close.
            let update = Task.immediate { try await Self.notify(app, "Upload done", hints: ["image-path": .string(path)], replacing: id) }
            _ = try await app.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                interface: "org.freedesktop.Notifications", method: "CloseNotification", arguments: [.uint32(id)])
            #expect(try await update.value == id)
            let listed = try await runCommand(RelayCtlTests.binary("relayctl").path, ["delivered", "--control-socket", socket])
            #expect(listed.status == 0 && listed.output.isEmpty, "left on the phone: \(listed.output)")
        }
    }

    /// A folder holding `large.png`, twelve megapixels: reading and reducing it takes the phone
    /// a good while. The caller removes the folder.
    private static func largePicture() throws -> String {
        let directory = "/tmp/relay-image-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let width = 4000, height = 3000
        guard let picture = RGBImage(width: width, height: height, bytes: [UInt8](repeating: 90, count: width * height * 3)) else {
            throw SoakFailure("bad picture size")
        }
        try PNGFile.write(picture, to: directory + "/large.png")
        return directory
    }

    private static func notify(
        _ client: DBusConnection, _ title: String, hints: [String: DBusValue], replacing: UInt32 = 0
    ) async throws -> UInt32 {
        try await client.call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", method: "Notify",
            arguments: [
                .string("test"), .uint32(replacing), .string(""), .string(title), .string(""), .array([String]()),
                .dictionary(
                    keySignature: .string, valueSignature: .variant,
                    entries: hints.map { DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value)) }),
                .int32(0),
            ]
        ).decode(0, as: UInt32.self)
    }

    private func run(_ rig: Rig, bus: PrivateBus) async throws {
        let wearable = ["--control-socket", rig.wearableSocket]
        try await rig.startWearable()
        try await rig.startPhone()
        try await rig.pair()
        try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])

        // A large photo: the phone reduces it to 320×213 before anything travels.
        let path = rig.directory + "/photo.png"
        try PNGFile.write(try Self.picture(width: 1200, height: 800), to: path)
        _ = try await runCommand(
            "/usr/bin/notify-send", ["-h", "string:image-path:" + path, "Photo", "From the beach"],
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        // Notify has replied: the phone holds its own copy, so the app's file may go at once.
        try FileManager.default.removeItem(atPath: path)

        _ = try await rig.waitUntilShown("Photo")
        try await rig.until("the wearable stores the photo") {
            let status = try await rig.wearableStatus()
            return status["attachments"] as? Int == 1 && status["attachmentsWaiting"] as? Int == 0
        }
        let stored = try FileManager.default.contentsOfDirectory(atPath: rig.directory + "/wearable-state/attachments")
        #expect(stored.count == 1 && stored[0].count == 64, "one file, named by its SHA-256: \(stored)")
        let size = try PNGFile.size(ofFile: rig.directory + "/wearable-state/attachments/" + stored[0])
        #expect(size.width == 320 && (213...214).contains(size.height), "reduced on the phone: \(size)")

        // Short look first, then Select opens the long look with the photo in it.
        let before = rig.directory + "/short.png"
        try await rig.ctl(["screenshot", before] + wearable)
        #expect(Self.orangePixels(try PNGFile.read(from: before)) == 0)
        try await rig.ctl(["press", "select"] + wearable)
        try await rig.until("the long look is up") { try await rig.wearableStatus()["screen"] as? String == "longLook" }
        let after = rig.directory + "/long.png"
        try await rig.ctl(["screenshot", after] + wearable)
        let orange = Self.orangePixels(try PNGFile.read(from: after))
        #expect(orange > 2000, "the photo's orange half is on the screen (\(orange) pixels)")
    }
}
