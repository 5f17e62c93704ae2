/// Measures a notification's long look for `UIStateMachine`: how far it scrolls and where its
/// buttons are. The machine decides with these figures and never lays out text itself.
///
/// The agent gives the machine the renderer's own `ScreenLayout`, so the keys and the pixels
/// agree on where everything is; a test may give fixed figures instead.
public protocol LongLookMeasuring: AnyObject {
    /// The long look's geometry for a notification in a state (whose categories give its buttons
    /// and whose stored pictures its image).
    func longLookGeometry(_ notification: WearableNotification, state: UIState) -> LongLookGeometry
}
