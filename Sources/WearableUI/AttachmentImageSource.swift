public import RelayDisplay

/// Where the renderer gets a stored picture's pixels, so screen models carry only sizes.
///
/// Asked once per picture and size shown (the renderer keeps the scaled result), on the thread
/// that renders.
public protocol AttachmentImageSource: Sendable {
    /// The pixels of the attachment with this URL; `nil` when they cannot be had (the file is
    /// gone or damaged), which the long look shows as an empty frame.
    func image(forURL url: String) -> RGBImage?
}

/// Reads attachments from PNG files, each found by a function from its URL to its path.
public struct PNGAttachmentSource: AttachmentImageSource {
    /// The file that holds an attachment, or `nil` for a URL that names none.
    public let path: @Sendable (_ url: String) -> String?
    /// The largest picture read, in pixels; larger files are not decoded.
    public let maxPixels: Int

    /// Creates a source over files found by `path`.
    public init(maxPixels: Int = PNGFile.defaultMaxPixels, path: @escaping @Sendable (_ url: String) -> String?) {
        self.path = path
        self.maxPixels = maxPixels
    }

    /// The file's pixels; `nil` when there is no file or it is not a readable PNG.
    public func image(forURL url: String) -> RGBImage? {
        guard let path = path(url) else { return nil }
        return try? PNGFile.read(from: path, maxPixels: maxPixels)
    }
}
