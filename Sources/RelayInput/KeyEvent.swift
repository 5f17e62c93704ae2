/// A key going down, repeating or coming up.
public struct KeyEvent: Hashable, Sendable {
    /// What the key does.
    public enum Phase: Hashable, Sendable {
        /// Pressed (value 1).
        case press
        /// Held long enough for the kernel's autorepeat (value 2).
        case autorepeat
        /// Released (value 0).
        case release
    }

    /// The key.
    public var key: InputKey
    /// Press, repeat or release.
    public var phase: Phase
    /// The Linux key code it came from.
    public var code: UInt16

    /// Creates a key event.
    public init(key: InputKey, phase: Phase, code: UInt16) {
        self.key = key
        self.phase = phase
        self.code = code
    }

    /// Whether the UI should act on it: presses and autorepeats (holding Down keeps scrolling).
    public var triggers: Bool { phase != .release }
}

/// Turns evdev events into key events: maps codes, ignores other event types, and recovers
/// from `SYN_DROPPED` the way the evdev documentation prescribes.
public struct KeyEventInterpreter: Sendable {
    /// The code-to-key map.
    public let keyMap: KeyMap
    private var dropping = false
    private var held: Set<UInt16> = []

    /// Creates an interpreter.
    public init(keyMap: KeyMap = .standard) {
        self.keyMap = keyMap
    }

    /// Forgets a half-read report and the keys held: a device went away (its releases with it).
    public mutating func reset() {
        dropping = false
        held.removeAll()
    }

    /// The key events among `events`.
    ///
    /// After `SYN_DROPPED` everything up to the next `SYN_REPORT` is discarded (it may be half a
    /// report), and keys still held are released, so a lost release never leaves a key stuck in
    /// autorepeat.
    public mutating func interpret(_ events: [InputEvent]) -> [KeyEvent] {
        var keys: [KeyEvent] = []
        for event in events {
            if event.type == InputEvent.synchronization {
                if event.code == InputEvent.synDropped {
                    dropping = true
                    for code in held.sorted() { if let key = keyMap[code] { keys.append(KeyEvent(key: key, phase: .release, code: code)) } }
                    held.removeAll()
                } else if event.code == InputEvent.synReport {
                    dropping = false
                }
                continue
            }
            guard !dropping, event.type == InputEvent.key, let key = keyMap[event.code] else { continue }
            let phase: KeyEvent.Phase
            switch event.value {
            case 0:
                phase = .release
                held.remove(event.code)
            case 1:
                phase = .press
                held.insert(event.code)
            case 2:
                phase = .autorepeat
            default:
                continue
            }
            keys.append(KeyEvent(key: key, phase: phase, code: event.code))
        }
        return keys
    }
}
