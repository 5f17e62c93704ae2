import Foundation
import RelayCore

extension CentreRecord {
    /// The record as JSON written directly, for the records every `Notify` stores: a freedesktop
    /// notification whose user info holds only strings. `nil` for anything else (Relay's own API,
    /// other user info), which `JSONEncoder` writes instead.
    ///
    /// The output is the same JSON form (`CentreRecord.decode` reads both), with keys in the
    /// same sorted order; `JSONEncoder` alone cost more than a tenth of relay-phone's CPU per call.
    func directJSON() -> Data? {
        guard rich == nil else { return nil }
        var userInfo: [(key: String, value: String)] = []
        userInfo.reserveCapacity(content.userInfo.count)
        for (key, value) in content.userInfo {
            guard case .string(let text) = value else { return nil }
            userInfo.append((key, text))
        }
        guard deliveredAt.timeIntervalSinceReferenceDate.isFinite,
            expiresAt.map({ $0.timeIntervalSinceReferenceDate.isFinite }) ?? true
        else { return nil }
        userInfo.sort { $0.key < $1.key }

        var json = JSONBytes()
        json.bytes.reserveCapacity(256 + content.title.utf8.count + content.body.utf8.count)
        json.open()
        json.key("acceptsReply")
        json.bool(acceptsReply)
        json.key("actionKeys")
        json.strings(actionKeys)
        json.key("actionLabels")
        json.strings(actionLabels)
        json.key("appName")
        json.string(appName)
        json.key("content")
        writeContent(&json, userInfo: userInfo)
        json.key("deliveredAt")
        json.number(deliveredAt.timeIntervalSinceReferenceDate)
        if let expiresAt {
            json.key("expiresAt")
            json.number(expiresAt.timeIntervalSinceReferenceDate)
        }
        json.key("id")
        json.integer(Int64(id))
        json.key("resident")
        json.bool(resident)
        if let sender {
            json.key("sender")
            json.string(sender)
        }
        json.close()
        return Data(json.bytes)
    }

    /// `NotificationContent`'s JSON form: only the fields that differ from their defaults.
    private func writeContent(_ json: inout JSONBytes, userInfo: [(key: String, value: String)]) {
        json.open()
        if !content.attachments.isEmpty {
            json.key("attachments")
            json.bytes.append(UInt8(ascii: "["))
            for (index, attachment) in content.attachments.enumerated() {
                if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
                json.open()
                json.key("identifier")
                json.string(attachment.identifier)
                if !attachment.type.isEmpty {
                    json.key("type")
                    json.string(attachment.type)
                }
                json.key("url")
                json.string(attachment.url)
                json.close()
            }
            json.bytes.append(UInt8(ascii: "]"))
        }
        if let badge = content.badge {
            json.key("badge")
            json.integer(Int64(badge))
        }
        json.nonEmpty("body", content.body)
        json.nonEmpty("categoryIdentifier", content.categoryIdentifier)
        if content.interruptionLevel != .active {
            json.key("interruptionLevel")
            json.string(content.interruptionLevel.rawValue)
        }
        if let sound = content.sound {
            json.key("sound")
            switch sound {
            case .default: json.string("default")
            case .named(let name): json.string(name)
            }
        }
        json.nonEmpty("subtitle", content.subtitle)
        json.nonEmpty("summaryArgument", content.summaryArgument)
        if content.summaryArgumentCount != 0 {
            json.key("summaryArgumentCount")
            json.integer(Int64(content.summaryArgumentCount))
        }
        json.nonEmpty("threadIdentifier", content.threadIdentifier)
        json.nonEmpty("title", content.title)
        if !userInfo.isEmpty {
            json.key("userInfo")
            json.open()
            for (key, value) in userInfo {
                json.key(escaping: key)
                json.string(value)
            }
            json.close()
        }
        json.close()
    }
}

/// JSON text built byte by byte; commas go in before every member but the first of an object.
private struct JSONBytes {
    var bytes: [UInt8] = []
    /// Whether the innermost open object has no member yet.
    private var atFirstMember = false

    mutating func open() {
        bytes.append(UInt8(ascii: "{"))
        atFirstMember = true
    }

    mutating func close() {
        bytes.append(UInt8(ascii: "}"))
        atFirstMember = false
    }

    /// A member's key that is one of the record's own: a literal that needs no escaping.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A member's key that came from outside, escaped as any string.
    mutating func key(escaping name: String) {
        separate()
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The comma before every member of an object but its first.
    private mutating func separate() {
        if !atFirstMember { bytes.append(UInt8(ascii: ",")) }
        atFirstMember = false
    }

    mutating func nonEmpty(_ name: StaticString, _ value: String) {
        guard !value.isEmpty else { return }
        key(name)
        string(value)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    mutating func integer(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number, written so that it reads back as the same `Double` (Swift's shortest
    /// round-trip form, which is valid JSON for finite values).
    mutating func number(_ value: Double) {
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A JSON string: the quote, the backslash and control characters escaped, the rest as UTF-8.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Most strings have nothing to escape: one scan, one copy.
            guard utf8.contains(where: Self.needsEscaping) else { return bytes.append(contentsOf: utf8) }
            var start = 0
            for (index, byte) in utf8.enumerated() where Self.needsEscaping(byte) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0xF)])
        }
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
