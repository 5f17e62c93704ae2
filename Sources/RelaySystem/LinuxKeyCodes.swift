/// The names of the Linux key codes a wearable's keys may send (`KEY_*` and `BTN_*` from
/// `<linux/input-event-codes.h>`): the ones keyboards, remotes and `gpio-keys` overlays use
/// for a handful of buttons. A configuration names keys by these, or by number.
public enum LinuxKeyCodes {
    /// Each name's code.
    public static let byName: [String: UInt16] = [
        "KEY_ESC": 1, "KEY_1": 2, "KEY_2": 3, "KEY_3": 4, "KEY_4": 5, "KEY_BACKSPACE": 14, "KEY_TAB": 15,
        "KEY_Q": 16, "KEY_W": 17, "KEY_E": 18, "KEY_ENTER": 28, "KEY_A": 30, "KEY_S": 31, "KEY_D": 32,
        "KEY_J": 36, "KEY_K": 37, "KEY_L": 38, "KEY_SPACE": 57, "KEY_KPENTER": 96, "KEY_HOME": 102,
        "KEY_UP": 103, "KEY_PAGEUP": 104, "KEY_LEFT": 105, "KEY_RIGHT": 106, "KEY_END": 107, "KEY_DOWN": 108,
        "KEY_PAGEDOWN": 109, "KEY_POWER": 116, "KEY_MENU": 139, "KEY_PROG1": 148, "KEY_PROG2": 149,
        "KEY_BACK": 158, "KEY_FORWARD": 159, "KEY_PROG3": 202, "KEY_PROG4": 203, "KEY_OK": 352,
        "KEY_SELECT": 353, "KEY_NEXT": 407, "KEY_PREVIOUS": 412,
        "BTN_0": 256, "BTN_1": 257, "BTN_2": 258, "BTN_3": 259, "BTN_4": 260, "BTN_5": 261,
        "BTN_LEFT": 272, "BTN_RIGHT": 273, "BTN_MIDDLE": 274,
        "BTN_DPAD_UP": 544, "BTN_DPAD_DOWN": 545, "BTN_DPAD_LEFT": 546, "BTN_DPAD_RIGHT": 547,
    ]

    /// The largest key code (`KEY_MAX`).
    public static let maximum: UInt16 = 0x2FF

    /// The code a configuration's word means: a name above, or a number from 1 to ``maximum``.
    public static func code(_ word: String) -> UInt16? {
        if let code = byName[word] { return code }
        guard let number = UInt16(word), (1...maximum).contains(number) else { return nil }
        return number
    }

    /// `KEY_UP` for 103; the number itself for a code without a name here.
    public static func name(of code: UInt16) -> String {
        byName.first { $0.value == code }?.key ?? "\(code)"
    }
}
