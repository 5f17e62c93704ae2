/// How the agents reach each other.
public enum TransportKind: String, CaseIterable, Sendable {
    /// Bluetooth RFCOMM through BlueZ.
    case rfcomm
    /// A Unix-domain socket or TCP on 127.0.0.1, for both agents on one machine.
    case loopback
}

/// What the wearable gets while the phone is unlocked (the person is looking at the phone).
public enum UnlockedMirroring: String, CaseIterable, Sendable {
    /// Nothing alerts the wearable; notifications reach it once the phone locks (as watchOS does).
    case doNotMirror = "none"
    /// Notifications are synced to the wearable without alerting it.
    case silent
}

/// When a notification's text may be shown, as iOS's "Show Previews" offers.
public enum PreviewVisibility: String, CaseIterable, Sendable {
    /// Always the full text.
    case always
    /// The full text while the phone is unlocked, the category's placeholder while it is locked.
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
