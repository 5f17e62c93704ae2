/// A picture stored on the wearable, as the screens lay it out: where it is and how large, never
/// its pixels, so screen models stay small values that are cheap to compare.
public struct AttachmentImage: Hashable, Sendable {
    /// The attachment's URL in the notification (`sha256:<hex>` on the wearable).
    public var url: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a description of a stored picture.
    public init(url: String, width: Int, height: Int) {
        self.url = url
        self.width = width
        self.height = height
    }
}

extension UIState {
    /// The picture a notification's long look shows: its first attachment that is a PNG (type
    /// `image/png`, or none given) and is stored on the wearable; `nil` until one is.
    public func longLookImage(of notification: WearableNotification) -> AttachmentImage? {
        for attachment in notification.content.attachments where Self.isPNG(attachment.type) {
            if let image = storedImages[attachment.url] { return image }
        }
        return nil
    }

    /// Whether a media type may be a PNG: the wearable decodes nothing else.
    private static func isPNG(_ type: String) -> Bool {
        type.isEmpty || type.lowercased() == "image/png"
    }
}
