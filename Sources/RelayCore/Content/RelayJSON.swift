public import Foundation

/// The canonical JSON form of the model, shared by relayctl, the D-Bus API and the tests.
///
/// Keys are sorted and slashes are not escaped so that the same value always encodes to
/// the same bytes; dates are ISO 8601 in UTC with whole seconds. Docs/MODEL.md describes
/// every type's form.
public enum RelayJSON {
    /// An encoder producing the canonical form.
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty
            ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder accepting the canonical form.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Encodes a value in the canonical form.
    public static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        try encoder(pretty: pretty).encode(value)
    }

    /// Decodes a value from the canonical form.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        try decoder().decode(type, from: data)
    }
}

extension KeyedEncodingContainer {
    /// Encodes a string only when it is not empty, keeping the canonical form free of defaults.
    mutating func encodeUnlessEmpty(_ value: String, forKey key: Key) throws {
        if !value.isEmpty { try encode(value, forKey: key) }
    }

    /// Encodes a collection only when it is not empty.
    mutating func encodeUnlessEmpty<C: Collection & Encodable>(_ value: C, forKey key: Key) throws {
        if !value.isEmpty { try encode(value, forKey: key) }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a value that may be absent, falling back to its default.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default defaultValue: T) throws -> T {
        try decodeIfPresent(type, forKey: key) ?? defaultValue
    }
}
