import Foundation
import RelayDisplay
import RelayLinkRuntime
import RelayStore
import RelayWire
import WearableUI

/// Attachments on the wearable (Docs/PROTOCOL.md §8.8): the replica names them by content
/// hash; the wearable fetches each one it does not hold — a chunk at a time, with two asked
/// for ahead, from where an interrupted transfer stopped — and assembles the chunks in its `AttachmentStore`,
/// which checks the hash before the file counts as stored. Files no notification refers to
/// any more are deleted.
extension WearableLink {
    /// Everything the replica refers to: shown notifications and scheduled requests.
    static func referencedAttachments(_ contents: ReplicaContents) -> [Relay_V1_AttachmentRef] {
        contents.notifications.values.flatMap(\.content.attachments) + contents.schedules.values.flatMap(\.content.attachments)
    }

    /// The attachments the replica refers to: how many are stored, and how many are still to
    /// come (or too large to take), for `relayctl status`.
    public var attachmentCounts: (stored: Int, waiting: Int) {
        let referenced = Set(state.withLock { Self.referencedAttachments($0.replica.contents) }.compactMap { AttachmentDigest(bytes: $0.sha256) })
        let stored = referenced.filter { attachments.size(of: $0) != nil }.count
        return (stored, referenced.count - stored)
    }

    /// What the screen is told at start-up: the stored images the replica refers to, with their sizes.
    var storedAttachmentEvents: [UIEvent] {
        let stored = attachments.stored()
        let referenced = state.withLock { Self.referencedAttachments($0.replica.contents) }
        var seen = Set<AttachmentDigest>()
        return referenced.compactMap { reference in
            guard let digest = AttachmentDigest(bytes: reference.sha256), stored.contains(digest), seen.insert(digest).inserted else {
                return nil
            }
            return storedEvent(digest)
        }
    }

    /// The bytes asked for in one request: one chunk of the phone's.
    static let requestBytes = 4096
    /// Bytes asked for and not yet received, at most: what an alert may have to wait behind in
    /// the link's queues, whatever the transport buffers (Docs/PROTOCOL.md §8.8).
    static let requestWindow = 2 * requestBytes

    /// Starts fetching the attachments of `references` (`nil`: everything the replica refers
    /// to) that are neither stored nor being fetched in this session.
    func requestMissingAttachments(_ references: [Relay_V1_AttachmentRef]? = nil) {
        let limit = Int(configuration.capabilities.maxAttachmentBytes)
        state.withLock { state in
            guard let commands = state.commands else { return }
            for reference in references ?? Self.referencedAttachments(state.replica.contents) {
                guard let digest = AttachmentDigest(bytes: reference.sha256), Int(reference.size) <= limit,
                    !state.refusedAttachments.contains(digest), state.downloads[digest] == nil,
                    attachments.size(of: digest) == nil
                else { continue }
                let received = attachments.receivedCount(of: digest)
                state.downloads[digest] = AttachmentDownload(size: Int(reference.size), requestedThrough: received)
                requestMore(digest, received: received, in: &state, commands: commands)
            }
        }
    }

    /// Asks for the next chunks of a download, keeping at most `requestWindow` bytes asked for
    /// and not received.
    private func requestMore(
        _ digest: AttachmentDigest, received: Int, in state: inout LinkState,
        commands: AsyncStream<LinkConnectionDriver.Command>.Continuation
    ) {
        guard var download = state.downloads[digest] else { return }
        var requests: [Relay_V1_AttachmentRequest] = []
        if download.size == 0, download.requestedThrough == 0, !download.askedForEmpty {
            // A file of no bytes is one empty chunk, asked for with length 0 ("to the end").
            download.askedForEmpty = true
            var request = Relay_V1_AttachmentRequest()
            request.sha256 = digest.bytes
            requests.append(request)
        }
        while download.requestedThrough < download.size, download.requestedThrough - received < Self.requestWindow {
            var request = Relay_V1_AttachmentRequest()
            request.sha256 = digest.bytes
            request.offset = UInt32(download.requestedThrough)
            request.length = UInt32(min(Self.requestBytes, download.size - download.requestedThrough))
            download.requestedThrough += Int(request.length)
            requests.append(request)
        }
        state.downloads[digest] = download
        for request in requests { commands.yield(.unlogged(.attachmentRequest(request))) }
    }

    /// Adds a chunk the phone sent and asks for more; a whole, checked file is announced to the screen.
    func receive(_ chunk: Relay_V1_AttachmentChunk) {
        guard let digest = AttachmentDigest(bytes: chunk.sha256), let download = state.withLock({ $0.downloads[digest] }) else {
            logger.warning("the phone sent a chunk of an attachment the wearable did not ask for; ignored")
            return
        }
        guard Int(chunk.totalSize) == download.size else {
            state.withLock { state in
                state.downloads[digest] = nil
                state.refusedAttachments.insert(digest)
            }
            logger.warning(
                "attachment refused: its chunks give another size than its reference",
                metadata: ["sha256": "\(digest)", "reference": "\(download.size)", "chunk": "\(chunk.totalSize)"])
            return
        }
        let result: AttachmentStore.ChunkResult
        do {
            result = try attachments.append(digest, offset: Int(chunk.offset), totalSize: Int(chunk.totalSize), data: chunk.data)
        } catch {
            logger.error("cannot store an attachment: \(error)", metadata: ["sha256": "\(digest)"])
            state.withLock { _ = $0.downloads.removeValue(forKey: digest) }
            return
        }
        switch result {
        case .incomplete(let received):
            state.withLock { state in
                guard let commands = state.commands else { return }
                requestMore(digest, received: received, in: &state, commands: commands)
            }
        case .outOfOrder:
            // Chunks of an answer the wearable no longer waits for; the next session asks from
            // the offset it has.
            break
        case .complete:
            state.withLock { _ = $0.downloads.removeValue(forKey: digest) }
            logger.info("attachment stored", metadata: ["sha256": "\(digest)", "bytes": "\(chunk.totalSize)"])
            if let event = storedEvent(digest) { present([event]) }
        case .corrupt(let reason):
            // Asked for again by the next session, not at once: a phone that keeps sending bad data
            // must not keep the link busy.
            logger.warning("attachment discarded: \(reason)", metadata: ["sha256": "\(digest)"])
        }
    }

    /// Deletes stored attachments (and partial ones) no notification or scheduled request
    /// refers to any more.
    func sweepAttachments() {
        let referenced = Set(state.withLock { Self.referencedAttachments($0.replica.contents) }.compactMap { AttachmentDigest(bytes: $0.sha256) })
        let gone = attachments.stored().subtracting(referenced)
        let removed = attachments.sweep(keeping: referenced)
        if removed > 0 { logger.info("attachments deleted: nothing refers to them any more", metadata: ["files": "\(removed)"]) }
        // The screen forgets their sizes too.
        if !gone.isEmpty { present(gone.map { .attachmentRemoved(url: $0.url) }) }
    }

    /// The screen's event for a stored image; `nil` when it is not a PNG the wearable can read.
    private func storedEvent(_ digest: AttachmentDigest) -> UIEvent? {
        do {
            let size = try PNGFile.size(ofFile: attachments.path(of: digest))
            return .attachmentStored(url: digest.url, width: size.width, height: size.height)
        } catch {
            logger.info("attachment stored but not shown: not a PNG image", metadata: ["sha256": "\(digest)"])
            return nil
        }
    }
}

extension ReplicaEffect {
    /// The attachments a stored notification or scheduled request refers to.
    var attachments: [Relay_V1_AttachmentRef] {
        switch self {
        case .stored(let record, _): record.content.attachments
        case .scheduleChanged(let schedule): schedule.content.attachments
        default: []
        }
    }

    /// Whether an attachment may have lost its last reference: only then is the store swept.
    var mayReleaseAttachments: Bool {
        switch self {
        case .attachmentsReleased: true
        default: false
        }
    }
}

/// A file being fetched in the current session.
struct AttachmentDownload: Sendable {
    /// Its size, from the notification's reference.
    var size: Int
    /// The end of what was asked for so far.
    var requestedThrough: Int
    /// For a file of 0 bytes: whether its one empty chunk was asked for.
    var askedForEmpty = false
}
