import Foundation

extension UIStateMachine {
    /// Something the user should see happened (a key press on a blanked panel, an alert, a
    /// pairing code): the idle time starts again, and a blanked panel is powered up.
    mutating func wakePanel() -> [UIAction] {
        state.lastActivity = state.now
        guard !state.panelAwake else { return [] }
        state.panelAwake = true
        return [.panel(awake: true)]
    }

    /// Blanks the panel once nothing happened for ``UIConfiguration/blankAfter``. Never while a
    /// pairing code is shown: the user is comparing it with the phone's. A clock stepped back
    /// past the last activity restarts the idle time rather than keeping the panel on until the
    /// clock reaches that moment again.
    mutating func blankPanelIfIdle() -> [UIAction] {
        guard state.panelAwake, let limit = configuration.blankAfter else { return [] }
        if case .pairing = state.screen { return [] }
        let idle = state.now.timeIntervalSince(state.lastActivity)
        if idle < 0 { state.lastActivity = state.now }
        guard idle >= limit else { return [] }
        state.panelAwake = false
        return [.panel(awake: false)]
    }
}
