import Foundation
import RelayControl
import RelayCore
import RelayDBus
import RelayDisplay
import RelayTestSupport

/// Keeps an image attachment in flight on the link for `relay-bench bulk`: posts a notification
/// with an `image-path` hint (as `notify-send -h string:image-path:…` does), watches the
/// wearable's `relayctl status` until the image is stored there, and posts the next one at
/// once, until told to stop.
///
/// The images are noise, so nothing compresses them: a PNG of noise is as large as its pixels
/// (320 × 320 × 3 ≈ 307 KB), and at the 320-pixel side relay-phone takes it in without
/// shrinking it. Each image is new, so the phone's store (by content) never has it already.
final class AttachmentFeeder: Sendable {
    /// One image carried to the wearable.
    struct Transfer: Sendable {
        /// Bytes on the link: the PNG as relay-phone stores and sends it.
        var bytes: Int
        /// `CLOCK_MONOTONIC` just before its `Notify` call.
        var posted: Int64
        /// When the wearable's status first counted it stored (within one poll interval).
        var stored: Int64
    }

    /// How often the wearable's status is read while an image is on its way: the completion
    /// times are this precise. A status request is one line on the control socket, no process.
    static let pollInterval = Duration.milliseconds(20)

    private let directory: String
    private let side: Int
    private let wearableSocket: String
    private let client: NotifyClient
    /// How long one image may take before the run is given up.
    private let timeout: Duration
    /// Opens once the first image is on its way: the wearable named it and has not stored it.
    let firstInFlight = Gate()

    /// A feeder writing its images (`side` × `side` pixels) into `directory` and posting them
    /// from `client`; `wearableSocket` is the wearable's control socket.
    init(directory: String, side: Int, wearableSocket: String, client: NotifyClient, timeout: Duration) throws {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BenchError("cannot create \(directory) for the benchmark's images: \(error.localizedDescription)")
        }
        self.directory = directory
        self.side = side
        self.wearableSocket = wearableSocket
        self.client = client
        self.timeout = timeout
    }

    /// Posts images one after the other, each once the previous one is stored on the wearable,
    /// until `stop` opens; the one in flight then is finished. Returns every transfer.
    func run(until stop: Gate) async throws -> [Transfer] {
        // Released also when no image got under way (a failure), so nobody waits for it forever.
        defer { firstInFlight.open() }
        var transfers: [Transfer] = []
        var next = try image(0)
        var index = 0
        while !stop.isOpen {
            let storedBefore = try status().stored
            let posted = MonotonicClock.nanoseconds()
            _ = try await client.notify(
                title: "bulk-image-\(index)",
                hints: [DBusDictionaryEntry(key: .string("image-path"), value: .variant(.string(next.path)))])
            index += 1
            // The next picture is made while this one travels, so the link does not wait for it.
            let following = try image(index)
            let stored = try await waitUntilStored(count: storedBefore + 1, bytes: next.bytes)
            transfers.append(Transfer(bytes: next.bytes, posted: posted, stored: stored))
            try? FileManager.default.removeItem(atPath: next.path)
            next = following
        }
        try? FileManager.default.removeItem(atPath: next.path)
        return transfers
    }

    /// Polls the wearable until it holds `count` images and waits for none; returns when it
    /// first saw that (`CLOCK_MONOTONIC`).
    private func waitUntilStored(count: Int, bytes: Int) async throws -> Int64 {
        let deadline = ContinuousClock.now + timeout
        while true {
            let now = try status()
            if now.waiting > 0 { firstInFlight.open() }
            if now.stored >= count && now.waiting == 0 {
                firstInFlight.open()
                return MonotonicClock.nanoseconds()
            }
            guard ContinuousClock.now < deadline else {
                throw BenchError(
                    "the wearable did not store an image of \(bytes) bytes within \(timeout) (it holds \(now.stored), "
                        + "waits for \(now.waiting)); see relay-wearable's log by running the agents by hand")
            }
            // Nothing announces a stored attachment outside the agent; its status is watched.
            try await Task.sleep(for: Self.pollInterval)
        }
    }

    /// The wearable's `attachments` (stored) and `attachmentsWaiting`.
    private func status() throws -> (stored: Int, waiting: Int) {
        let response: ControlResponse
        do {
            response = try ControlClient.send(
                WearableRequest.status, to: wearableSocket, agent: "relay-wearable",
                start: "relay-bench bulk starts it")
        } catch {
            throw BenchError("cannot read relay-wearable's status: \(error)")
        }
        guard response.ok, case .int(let stored)? = response.values["attachments"],
            case .int(let waiting)? = response.values["attachmentsWaiting"]
        else {
            throw BenchError(
                "relay-wearable's status has no attachments and attachmentsWaiting (\(response.error ?? "no error given")); "
                    + "build relay-wearable from the same commit as relay-bench")
        }
        return (stored, waiting)
    }

    /// Noise image number `index`, written as a PNG; `bytes` is its size as relay-phone will
    /// store and send it (the phone decodes and encodes again with the same libpng).
    private func image(_ index: Int) throws -> (path: String, bytes: Int) {
        var generator = SplitMix64(state: 0x5EED_0000 &+ UInt64(index))
        var pixels = [UInt8](repeating: 0, count: side * side * 3)
        pixels.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                var word = generator.next()
                for _ in 0..<min(8, buffer.count - offset) {
                    buffer[offset] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    offset += 1
                }
            }
        }
        let path = directory + "/image-\(index).png"
        guard let picture = RGBImage(width: side, height: side, bytes: pixels) else {
            throw BenchError("a \(side) × \(side) image could not be made; pass a positive --image-side")
        }
        do {
            try PNGFile.write(picture, to: path)
            return (path, try PNGFile.encode(picture).count)
        } catch {
            throw BenchError("cannot write the benchmark's image \(path): \(error)")
        }
    }
}
