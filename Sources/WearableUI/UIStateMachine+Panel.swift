import Foundation

extension UIStateMachine {
    /// Something the user should see happened (a key press on a blanked panel, an alert, a
    /// pairing code): the idle time starts again, and a blanked panel is powered up.
    mutating func wakePanel() -> [UIAction] {
        state.lastActivity = state.uptime
        guard !state.panelAwake else { return [] }
        state.panelAwake = true
        return [.panel(awake: true)]
    }

    /// Blanks the panel once nothing happened for ``UIConfiguration/blankAfter`` of uptime (a
    /// monotonic clock: a wall clock stepped or corrected by the phone's moves no idle time).
    /// Never while a pairing code is shown: the user is comparing it with the phone's; never
    /// again once the driver refused.
    mutating func blankPanelIfIdle() -> [UIAction] {
        guard state.panelAwake, !state.panelCannotBlank, let limit = configuration.blankAfter else { return [] }
        if case .pairing = state.screen { return [] }
        guard state.uptime - state.lastActivity >= .seconds(limit) else { return [] }
        state.panelAwake = false
        return [.panel(awake: false)]
    }
}
