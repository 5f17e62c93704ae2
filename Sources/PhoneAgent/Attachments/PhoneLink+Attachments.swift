import Foundation
public import RelayCore
import RelayStore
public import RelayWire

extension PhoneLink {
    /// The bytes of one chunk: a chunk's envelope stays far inside a frame (Docs/PROTOCOL.md
    /// §8.8), and a control message waits behind at most this much on the link.
    static let chunkBytes = 4096

    /// The references the wearable gets for a notification's attachments: those in the store
    /// (URL `sha256:<hex>`), with their sizes. Anything else stays on the phone.
    public func attachmentReferences(_ attachments: [NotificationAttachment]) -> [Relay_V1_AttachmentRef] {
        attachments.compactMap { attachment in
            guard let digest = AttachmentDigest(url: attachment.url), let size = self.attachments.size(of: digest) else { return nil }
            var reference = Relay_V1_AttachmentRef()
            reference.identifier = attachment.identifier
            reference.type = attachment.type
            reference.sha256 = digest.bytes
            reference.size = UInt32(clamping: size)
            return reference
        }
    }

    /// The most one request is answered with; the wearable asks for a chunk or two at a time.
    static let maximumAnswerBytes = 64 * 1024

    /// Answers the wearable's request for an attachment: `length` bytes (0: the rest of the file)
    /// from the requested offset, at most `maximumAnswerBytes`, in chunks on the bulk channel of
    /// the current session. The wearable asks for little at a time, so alerts never wait behind
    /// much of it, and a peer cannot have the phone read whole files into memory at a word.
    func sendAttachment(_ request: Relay_V1_AttachmentRequest) {
        guard let digest = AttachmentDigest(bytes: request.sha256), let size = attachments.size(of: digest) else {
            logger.warning("the wearable asked for an attachment the phone does not hold", metadata: ["sha256": "\(request.sha256.hexString)"])
            return
        }
        var offset = Int(request.offset)
        guard offset <= size else {
            logger.warning("the wearable asked for an attachment past its end", metadata: ["sha256": "\(digest)", "offset": "\(offset)"])
            return
        }
        let wanted = request.length == 0 ? size - offset : Int(request.length)
        let end = min(size, offset + min(wanted, Self.maximumAnswerBytes))
        var chunks: [Relay_V1_Envelope.OneOf_Body] = []
        repeat {
            let data: Data
            do {
                data = try attachments.read(digest, offset: offset, count: min(Self.chunkBytes, end - offset))
            } catch {
                logger.error("cannot read an attachment to send it: \(error)", metadata: ["sha256": "\(digest)"])
                return
            }
            var chunk = Relay_V1_AttachmentChunk()
            chunk.sha256 = digest.bytes
            chunk.offset = UInt32(offset)
            chunk.totalSize = UInt32(size)
            chunk.data = data
            chunks.append(.attachmentChunk(chunk))
            offset += data.count
            // A file that shrank under us ends the answer; the wearable's hash check catches the rest.
            if data.isEmpty { break }
        } while offset < end
        logger.debug("sending part of an attachment", metadata: ["sha256": "\(digest)", "from": "\(request.offset)", "to": "\(end)"])
        state.withLock { state in
            for chunk in chunks { state.commands?.yield(.bulk(chunk)) }
        }
    }
}
