/// The wearable's four keys, as the input layer names them.
public enum InputKey: String, Hashable, Sendable, CaseIterable {
    /// Scroll up, previous item.
    case up
    /// Scroll down, next item.
    case down
    /// Open, choose, confirm.
    case select
    /// Go back.
    case back
}

/// Which Linux key codes mean which key; gpio-key overlays and keyboards differ, so it is
/// configuration, not code.
public struct KeyMap: Hashable, Sendable {
    /// Key codes (`KEY_*` from `<linux/input-event-codes.h>`) and their meaning.
    public var codes: [UInt16: InputKey]

    /// Creates a map.
    public init(codes: [UInt16: InputKey]) {
        self.codes = codes
    }

    /// The arrow keys, Enter and Escape/Backspace — what a keyboard offers and what the
    /// `Hardware/` overlays assign to the four buttons — plus `KEY_SELECT` and `KEY_BACK`.
    public static let standard = KeyMap(codes: [
        103: .up,  // KEY_UP
        108: .down,  // KEY_DOWN
        28: .select,  // KEY_ENTER
        96: .select,  // KEY_KPENTER
        353: .select,  // KEY_SELECT
        1: .back,  // KEY_ESC
        14: .back,  // KEY_BACKSPACE
        158: .back,  // KEY_BACK
    ])

    /// A map from each key's codes (as `[keys]` in wearable.toml gives them); a code listed
    /// for two keys means the later one (the configuration refuses that beforehand).
    public init(up: [UInt16], down: [UInt16], select: [UInt16], back: [UInt16]) {
        var codes: [UInt16: InputKey] = [:]
        for (list, key) in [(up, InputKey.up), (down, .down), (select, .select), (back, .back)] {
            for code in list { codes[code] = key }
        }
        self.init(codes: codes)
    }

    /// The key a code means, if any.
    public subscript(code: UInt16) -> InputKey? { codes[code] }
}
