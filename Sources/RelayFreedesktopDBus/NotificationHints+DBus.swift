import Foundation
import RelayCore
public import RelayDBus
public import RelayFreedesktop

extension NotificationHints {
    /// Reads the hints dictionary `a{sv}`. Clients are lax about types (urgency as a byte, an
    /// int32 or a string), so values are read leniently and anything unusable is dropped with a
    /// note for the log.
    public init(entries: [String: DBusValue]) {
        self.init()
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
            case "x-relay-interruption-level":
                if let word = string(value, key), let level = InterruptionLevel(rawValue: word) {
                    interruptionLevel = level
                } else {
                    notes.append("hint x-relay-interruption-level: expected passive, active, time-sensitive or critical; using the urgency")
                }
            default: break
            }
        }
        if imageData == nil, imagePath == nil { imageData = iconData }
    }

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
