public import RelayDisplay
public import RelayText
import RelayCore

/// Lays out the screens for one panel size with one typesetter; shared by the state machine (its
/// measurer, for scroll bounds) and the renderer (for pixels), so both agree.
///
/// Not `Sendable`: it owns the typesetter's FreeType state and a layout cache.
public final class ScreenLayout: LongLookMeasuring {
    /// Sizes scaled to the panel.
    public let metrics: LayoutMetrics
    /// Measures and draws text.
    public let typesetter: Typesetter
    private var cachedLongLook: (key: LongLookKey, layout: LongLookLayout)?

    /// Creates a layout for a panel of `width` × `height` pixels.
    public init(width: Int, height: Int, typesetter: Typesetter) {
        metrics = LayoutMetrics(width: width, height: height)
        self.typesetter = typesetter
    }

    /// Creates a layout for a framebuffer's visible size.
    public convenience init(geometry: FramebufferGeometry, typesetter: Typesetter) {
        self.init(width: geometry.width, height: geometry.height, typesetter: typesetter)
    }

    /// The long look's geometry for a notification in a state (whose categories give its buttons
    /// and whose stored pictures its image).
    public func longLookGeometry(_ notification: WearableNotification, state: UIState) -> LongLookGeometry {
        longLook(notification, buttons: state.buttons(of: notification), image: state.longLookImage(of: notification)).geometry
    }

    /// Where everything on a notification's long look goes.
    func longLook(_ notification: WearableNotification, buttons: [LongLookButton], image: AttachmentImage?) -> LongLookLayout {
        let key = LongLookKey(content: notification.content, buttons: buttons.map(\.title), image: image)
        if let cachedLongLook, cachedLongLook.key == key { return cachedLongLook.layout }
        let layout = LongLookLayout(
            notification.content, image: image, buttons: key.buttons, metrics: metrics, typesetter: typesetter)
        cachedLongLook = (key, layout)
        return layout
    }
}

private struct LongLookKey: Hashable {
    let content: NotificationContent
    let buttons: [String]
    let image: AttachmentImage?
}
