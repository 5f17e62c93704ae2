public import Foundation
public import RelayDBus

/// The hints of a `Notify` call (freedesktop notification spec 1.2, "Hints") that Relay
/// uses. Clients are lax about types (urgency as a byte, an int32 or a string), so
/// values are read leniently and anything unusable is dropped with a note for the log.
public struct NotificationHints: Sendable, Hashable {
    /// How urgent the notification is.
    public enum Urgency: UInt8, Sendable, Hashable {
        /// Low urgency: no alert.
        case low = 0
        /// Normal urgency.
        case normal = 1
        /// Critical: always alerts.
        case critical = 2
    }

    /// A raw image from `image-data` (`(iiibiiay)`).
    public struct ImageData: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Bytes per row.
        public var rowStride: Int
        /// Whether a fourth (alpha) channel is present.
        public var hasAlpha: Bool
        /// Bits per sample; always 8 in practice.
        public var bitsPerSample: Int
        /// 3 (RGB) or 4 (RGBA).
        public var channels: Int
        /// The pixel bytes.
        public var data: Data

        /// Creates an image from its parts, as they were validated.
        public init(width: Int, height: Int, rowStride: Int, hasAlpha: Bool, bitsPerSample: Int, channels: Int, data: Data) {
            self.width = width
            self.height = height
            self.rowStride = rowStride
            self.hasAlpha = hasAlpha
            self.bitsPerSample = bitsPerSample
            self.channels = channels
            self.data = data
        }
    }

    /// `urgency`.
    public var urgency: Urgency = .normal
    /// `category`, such as `email.arrived`.
    public var category: String?
    /// `desktop-entry`: the posting app's desktop file name, its identity.
    public var desktopEntry: String?
    /// `image-path` (also the older `image_path`).
    public var imagePath: String?
    /// `image-data` (also `image_data` and `icon_data`), validated.
    public var imageData: ImageData?
    /// `sound-name`.
    public var soundName: String?
    /// `suppress-sound`.
    public var suppressSound = false
    /// `transient`: not kept in history.
    public var transient = false
    /// `resident`: not removed when an action is invoked.
    public var resident = false
    /// `x-kde-reply-placeholder-text`: asks for an inline reply with this placeholder.
    public var replyPlaceholder: String?
    /// Why some hints were ignored, for the log.
    public var notes: [String] = []

    /// The largest `image-data` accepted, in bytes; bigger images are dropped.
    public static let maximumImageBytes = 4 * 1024 * 1024

    /// Reads the hints dictionary `a{sv}`.
    public init(_ entries: [String: DBusValue]) {
        // Of the image hints, the specification's order decides, not the keys' order:
        // image-data, image_data, image-path, image_path, icon_data (each rank: lower wins).
        var imageDataRank = Int.max
        var imagePathRank = Int.max
        var iconData: ImageData?
        for (key, wrapped) in entries.sorted(by: { $0.key < $1.key }) {
            let value = wrapped.unwrappingVariant
            switch key {
            case "urgency":
                if let number = Self.integer(value), let level = UInt8(exactly: number).flatMap(Urgency.init) {
                    urgency = level
                } else {
                    notes.append("hint urgency: expected a byte 0, 1 or 2; using normal")
                }
            case "category": category = string(value, key)
            case "desktop-entry": desktopEntry = string(value, key)
            case "image-path", "image_path":
                let rank = key == "image-path" ? 0 : 1
                if rank < imagePathRank, let path = string(value, key) { (imagePath, imagePathRank) = (path, rank) }
            case "image-data", "image_data":
                let rank = key == "image-data" ? 0 : 1
                if rank < imageDataRank, let data = image(value, key) { (imageData, imageDataRank) = (data, rank) }
            case "icon_data": iconData = image(value, key)
            case "sound-name": soundName = string(value, key)
            case "suppress-sound": suppressSound = bool(value, key)
            case "transient": transient = bool(value, key)
            case "resident": resident = bool(value, key)
            case "x-kde-reply-placeholder-text": replyPlaceholder = string(value, key)
            default: break
            }
        }
        if imageData == nil, imagePath == nil { imageData = iconData }
    }

    /// An empty set of hints.
    public init() {}

    private static func integer(_ value: DBusValue) -> Int64? {
        switch value {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        case .string(let v): Int64(v)
        default: nil
        }
    }

    private mutating func string(_ value: DBusValue, _ key: String) -> String? {
        if case .string(let text) = value { return text }
        notes.append("hint \(key): expected a string, got \(value.signature.rawValue); ignored")
        return nil
    }

    private mutating func bool(_ value: DBusValue, _ key: String) -> Bool {
        if case .boolean(let flag) = value { return flag }
        if let number = Self.integer(value) { return number != 0 }
        notes.append("hint \(key): expected a boolean, got \(value.signature.rawValue); ignored")
        return false
    }

    private mutating func image(_ value: DBusValue, _ key: String) -> ImageData? {
        guard case .structure(let fields) = value, fields.count == 7,
            let width = Self.integer(fields[0]), let height = Self.integer(fields[1]),
            let stride = Self.integer(fields[2]), case .boolean(let alpha) = fields[3],
            let bits = Self.integer(fields[4]), let channels = Self.integer(fields[5]),
            fields[6].signature == .byteArray
        else {
            notes.append("hint \(key): expected (iiibiiay); ignored")
            return nil
        }
        guard let bytes = pixels(fields[6], key) else { return nil }
        let expectedChannels: Int64 = alpha ? 4 : 3
        guard width > 0, height > 0, width <= 4096, height <= 4096, bits == 8, channels == expectedChannels,
            // Bounded before they are multiplied: any client may send an int64 (or a string) here.
            stride >= width * channels, stride <= Int64(bytes.count),
            (height - 1) * stride + width * channels <= Int64(bytes.count)
        else {
            notes.append("hint \(key): \(width)×\(height), stride \(stride), \(channels) channels of \(bits) bits does not match \(bytes.count) bytes; ignored")
            return nil
        }
        return ImageData(
            width: Int(width), height: Int(height), rowStride: Int(stride), hasAlpha: alpha, bitsPerSample: Int(bits),
            channels: Int(channels), data: bytes)
    }

    /// The pixel bytes of an `image-data` value (`ay`), within the size limit; `nil`, noted, when over it.
    private mutating func pixels(_ value: DBusValue, _ key: String) -> Data? {
        let count =
            switch value {
            case .bytes(let bytes): bytes.count
            case .array(_, let elements): elements.count
            default: 0
            }
        guard count <= Self.maximumImageBytes else {
            notes.append("hint \(key): \(count) bytes is over the \(Self.maximumImageBytes)-byte limit; ignored")
            return nil
        }
        switch value {
        case .bytes(let bytes):
            return Data(bytes)
        case .array(_, let elements):
            // Built in this process (decoding gives `.bytes`), and then possibly inconsistent.
            let bytes = elements.compactMap { if case .byte(let byte) = $0 { byte } else { nil } }
            guard bytes.count == elements.count else {
                notes.append("hint \(key): pixel data is not bytes; ignored")
                return nil
            }
            return Data(bytes)
        default:
            return Data()
        }
    }
}
