import Crypto
import Foundation

/// The spec's HKDF (§4.3) over HMAC-SHA256. With an empty `info` it equals RFC 5869 HKDF,
/// which the tests use as an independent check.
enum NoiseHKDF {
    /// HKDF(chaining_key, input_key_material, 2).
    static func derive2(chainingKey: Data, inputKeyMaterial: some ContiguousBytes) -> (Data, Data) {
        let tempKey = extract(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        let output1 = expand(tempKey, previous: Data(), counter: 1)
        let output2 = expand(tempKey, previous: output1, counter: 2)
        return (output1, output2)
    }

    /// HKDF(chaining_key, input_key_material, 3).
    static func derive3(chainingKey: Data, inputKeyMaterial: some ContiguousBytes) -> (Data, Data, Data) {
        let tempKey = extract(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial)
        let output1 = expand(tempKey, previous: Data(), counter: 1)
        let output2 = expand(tempKey, previous: output1, counter: 2)
        let output3 = expand(tempKey, previous: output2, counter: 3)
        return (output1, output2, output3)
    }

    /// temp_key = HMAC-HASH(chaining_key, input_key_material).
    private static func extract(chainingKey: Data, inputKeyMaterial: some ContiguousBytes) -> SymmetricKey {
        let mac = inputKeyMaterial.withUnsafeBytes { bytes in
            HMAC<SHA256>.authenticationCode(for: bytes, using: SymmetricKey(data: chainingKey))
        }
        return SymmetricKey(data: mac)
    }

    /// output_i = HMAC-HASH(temp_key, output_{i-1} || byte(i)).
    private static func expand(_ tempKey: SymmetricKey, previous: Data, counter: UInt8) -> Data {
        var hmac = HMAC<SHA256>(key: tempKey)
        hmac.update(data: previous)
        hmac.update(data: [counter])
        return Data(hmac.finalize())
    }
}
