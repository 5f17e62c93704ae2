/// How the agents reach each other.
public enum TransportKind: String, CaseIterable, Sendable {
    /// Bluetooth RFCOMM through BlueZ.
    case rfcomm
    /// A Unix-domain socket or TCP on 127.0.0.1, for both agents on one machine.
    case loopback
}

/// What the wearable gets while the phone is unlocked (the person is looking at the phone).
public enum UnlockedMirroring: String, CaseIterable, Sendable {
    /// Notifications that arrive while the phone is unlocked stay on the phone and never reach
    /// the wearable, not even once the phone locks (Apple's rule: they were seen where they arrived).
    case doNotMirror = "none"
    /// Notifications are synced to the wearable without alerting it.
    case silent
}

/// What the phone counts as while no lock source knows anything: no logind session on the
/// seat, no screensaver on the bus.
public enum LockFallback: String, CaseIterable, Sendable {
    /// A phone board with no screen: it counts as locked, and everything reaches the wearable.
    case headless
    /// It counts as unlocked, and `mirror.when_unlocked` decides.
    case unlocked
}

/// When a notification's text may be shown, as iOS's "Show Previews" offers.
public enum PreviewVisibility: String, CaseIterable, Sendable {
    /// Always the full text.
    case always
    /// Meant as iOS's "When Unlocked"; the phone treats it as `always`, because the wearable
    /// alerts only while the phone is locked and has no lock of its own to decide by.
    case whenUnlocked = "when_unlocked"
    /// Always the placeholder ("2 new messages").
    case never
}

/// The pixel layout of a file framebuffer.
public enum FramebufferFormat: String, CaseIterable, Sendable {
    /// 16 bits per pixel, as small SPI panels use.
    case rgb565
    /// 32 bits per pixel.
    case xrgb8888
}
