import Foundation
import RelayCore

/// `--json` output of the API commands: one object or array in the model's canonical form (keys sorted).
enum JSONOutput {
    /// Prints a value as one line of canonical JSON.
    static func print(_ value: some Encodable) throws {
        Swift.print(String(decoding: try RelayJSON.encode(value), as: UTF8.self))
    }
}
