import Foundation
import RelayDisplay
import RelayStore
import RelayWire
import WearableUI

/// Attachments on the wearable (Docs/PROTOCOL.md §8.8): the replica names them by content
/// hash; the wearable asks the phone for each one it does not hold — once per session, from
/// where an interrupted transfer stopped — and assembles the chunks in its `AttachmentStore`,
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

    /// Asks the current session's phone for the attachments of `references` that are neither
    /// stored nor asked for in this session (`nil`: everything the replica refers to).
    func requestMissingAttachments(_ references: [Relay_V1_AttachmentRef]? = nil) {
        let limit = Int(configuration.capabilities.maxAttachmentBytes)
        state.withLock { state in
            guard let commands = state.commands else { return }
            for reference in references ?? Self.referencedAttachments(state.replica.contents) {
                guard let digest = AttachmentDigest(bytes: reference.sha256), Int(reference.size) <= limit,
                    !state.refusedAttachments.contains(digest), attachments.size(of: digest) == nil,
                    state.askedForAttachments.insert(digest).inserted
                else { continue }
                var request = Relay_V1_AttachmentRequest()
                request.sha256 = digest.bytes
                request.offset = UInt32(attachments.receivedCount(of: digest))
                commands.yield(.unlogged(.attachmentRequest(request)))
            }
        }
    }

    /// Adds a chunk the phone sent; a whole, checked file is announced to the screen.
    func receive(_ chunk: Relay_V1_AttachmentChunk) {
        guard let digest = AttachmentDigest(bytes: chunk.sha256),
            state.withLock({ $0.askedForAttachments.contains(digest) })
        else {
            logger.warning("the phone sent a chunk of an attachment the wearable did not ask for; ignored")
            return
        }
        guard Int(chunk.totalSize) <= Int(configuration.capabilities.maxAttachmentBytes) else {
            state.withLock { _ = $0.refusedAttachments.insert(digest) }
            logger.warning(
                "attachment refused: larger than this wearable takes",
                metadata: ["sha256": "\(digest)", "bytes": "\(chunk.totalSize)", "limit": "\(configuration.capabilities.maxAttachmentBytes)"])
            return
        }
        let result: AttachmentStore.ChunkResult
        do {
            result = try attachments.append(digest, offset: Int(chunk.offset), totalSize: Int(chunk.totalSize), data: chunk.data)
        } catch {
            logger.error("cannot store an attachment: \(error)", metadata: ["sha256": "\(digest)"])
            state.withLock { _ = $0.askedForAttachments.remove(digest) }
            return
        }
        switch result {
        case .incomplete, .outOfOrder:
            // Out of order: chunks of an answer the wearable no longer waits for; the request
            // of the next session names the offset it has.
            break
        case .complete:
            logger.info("attachment stored", metadata: ["sha256": "\(digest)", "bytes": "\(chunk.totalSize)"])
            if let event = storedEvent(digest) { present([event]) }
        case .corrupt(let reason):
            // Asked for again by the next session, not at once: a phone that keeps sending bad data
            // must not keep the link busy.
            logger.warning("attachment discarded: \(reason)", metadata: ["sha256": "\(digest)"])
            state.withLock { _ = $0.askedForAttachments.remove(digest) }
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

    /// Whether an attachment may have lost its last reference. Replacements are left to the
    /// next removal's sweep: one directory listing per removal, none per update.
    var mayReleaseAttachments: Bool {
        switch self {
        case .removed, .scheduleRemoved: true
        default: false
        }
    }
}
