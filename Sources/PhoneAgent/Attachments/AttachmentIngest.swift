import Foundation
public import RelayCore
import RelayDisplay
public import RelayFreedesktop
public import RelayStore
import RelaySystem

/// Takes in the images apps attach to notifications, when they post: each (PNG or JPEG) is read once,
/// reduced to a size the wearable can show and stored by content in the phone's
/// `AttachmentStore`; the notification then names it `sha256:<hex>`.
///
/// Taking it in at once means a file the app deletes or changes afterwards still reaches the
/// wearable as it was, and the wearable never receives more than a screenful of pixels over a
/// slow link. Anything that cannot be taken in (missing, not a PNG image, too large) keeps its
/// original URL, stays on the phone, and is explained by a note for the log. What the wearable
/// gets is always a PNG: it reads no other format.
public struct AttachmentIngest: Sendable {
    /// Images are reduced to fit a square of this many pixels: larger than any wearable
    /// screen Relay draws on, so the wearable only ever scales down.
    public static let thumbnailSide = 320
    /// The largest file read, in bytes.
    public static let maximumFileBytes = 16 * 1024 * 1024
    /// The most pixels decoded (a 40-megapixel photo needs 120 MB of RGB).
    public static let maximumPixels = 40_000_000

    /// Where the images go.
    public let store: AttachmentStore

    /// Creates an ingest into `store`.
    public init(store: AttachmentStore) {
        self.store = store
    }

    /// The attachments with every image the phone can show taken into the store.
    public func take(_ attachments: [NotificationAttachment]) -> (attachments: [NotificationAttachment], notes: [String]) {
        // Too many is refused by validation afterwards: nothing is read for such a request.
        guard attachments.count <= ModelLimits.attachments else { return (attachments, []) }
        var notes: [String] = []
        let taken = attachments.map { attachment in
            do {
                return try take(attachment)
            } catch {
                notes.append("attachment '\(attachment.identifier)' stays on the phone: \(error)")
                return attachment
            }
        }
        return (taken, notes)
    }

    /// A `Notify` call with its `image-data` or `image-path` taken into the store (`image-data`
    /// wins, as the specification orders them); what could not be taken in is noted on the call.
    public func takeImages(of call: PostedNotification) -> PostedNotification {
        var call = call
        if let raw = call.hints.imageData {
            guard
                let image = RGBImage(
                    raw: [UInt8](raw.data), width: raw.width, height: raw.height, rowstride: raw.rowStride,
                    channels: raw.channels)
            else {
                call.notes.append("image-data ignored: its sizes do not match its bytes")
                return call
            }
            do {
                call.attachments = [try store(image, identifier: FreedesktopMapping.imageIdentifier)]
            } catch {
                call.notes.append("image-data stays on the phone: \(error)")
            }
        } else if let path = call.hints.imagePath, !path.isEmpty {
            let (taken, notes) = take([NotificationAttachment(identifier: FreedesktopMapping.imageIdentifier, url: path)])
            call.notes += notes
            // Only an image taken in replaces the hint's; otherwise the mapping keeps the path.
            if notes.isEmpty { call.attachments = taken }
        }
        return call
    }

    /// One attachment taken in, or why not.
    func take(_ attachment: NotificationAttachment) throws(AttachmentIngestError) -> NotificationAttachment {
        if let digest = AttachmentDigest(url: attachment.url) {
            guard store.size(of: digest) != nil else { throw .notStored(digest) }
            store.markUsed(digest)
            return attachment
        }
        guard let path = Self.localPath(of: attachment.url) else { throw .notALocalFile(attachment.url) }
        let bytes = try Self.readFile(path)
        let image: RGBImage
        do {
            image =
                JPEGFile.looksLikeJPEG(bytes)
                ? try JPEGFile.decode(bytes, maxPixels: Self.maximumPixels, fitSide: Self.thumbnailSide)
                : try PNGFile.decode(bytes, maxPixels: Self.maximumPixels)
        } catch {
            throw .notAnImage(path, "\(error)")
        }
        return try store(image, identifier: attachment.identifier)
    }

    /// Stores an image reduced to the thumbnail size, as PNG.
    private func store(_ image: RGBImage, identifier: String) throws(AttachmentIngestError) -> NotificationAttachment {
        let thumbnail = image.scaledToFit(maxWidth: Self.thumbnailSide, maxHeight: Self.thumbnailSide)
        do {
            let digest = try store.put(Data(PNGFile.encode(thumbnail)))
            return NotificationAttachment(identifier: identifier, url: digest.url, type: "image/png")
        } catch {
            throw .cannotStore("\(error)")
        }
    }

    /// The path of an absolute path or a `file:` URL; `nil` for anything else (the phone does
    /// not download).
    static func localPath(of url: String) -> String? {
        if url.hasPrefix("/") { return url }
        guard url.hasPrefix("file:"), let parsed = URL(string: url), parsed.isFileURL, !parsed.path.isEmpty else { return nil }
        return parsed.path
    }

    /// Reads a regular file of at most `maximumFileBytes`. An app names the path, so it may be
    /// anything: a FIFO would block the bus thread for ever (hence `O_NONBLOCK` and the check
    /// for a regular file), and a device such as /dev/zero reports no size and never ends
    /// (hence reading no more than the limit allows).
    private static func readFile(_ path: String) throws(AttachmentIngestError) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw .unreadable(path) }
        guard status.st_size <= maximumFileBytes else { throw .tooLarge(path, Int(status.st_size)) }
        // One byte more than it says it holds, to notice one that grows while being read.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                try? SystemError.retrying("read(\(path))") {
                    Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
                }
            }
            guard let read else { throw .unreadable(path) }
            if read == 0 { break }
            count += read
        }
        guard count < bytes.count else { throw .unreadable(path) }
        return Data(bytes[..<count])
    }
}

/// Why an attachment was not taken in.
public enum AttachmentIngestError: Error, Sendable, CustomStringConvertible {
    /// Not a path or a `file:` URL.
    case notALocalFile(String)
    /// Missing, or not readable by the phone agent's user.
    case unreadable(String)
    /// Larger than `AttachmentIngest.maximumFileBytes`.
    case tooLarge(String, Int)
    /// Not a PNG or JPEG image (or a damaged one).
    case notAnImage(String, String)
    /// A `sha256:` URL of a file the store does not hold.
    case notStored(AttachmentDigest)
    /// The store could not write it.
    case cannotStore(String)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .notALocalFile(let url):
            "\(url) is not a local file; attach a path or a file: URL"
        case .unreadable(let path):
            "cannot read \(path); check that it exists and that relay-phone's user may read it"
        case .tooLarge(let path, let size):
            "\(path) has \(size) bytes, more than the \(AttachmentIngest.maximumFileBytes) Relay reads; attach a smaller image"
        case .notAnImage(let path, let reason):
            "\(path) is not a PNG or JPEG image Relay can read (\(reason))"
        case .notStored(let digest):
            "no attachment sha256:\(digest) is stored on the phone; attach the file itself"
        case .cannotStore(let reason):
            "cannot store it: \(reason)"
        }
    }
}
