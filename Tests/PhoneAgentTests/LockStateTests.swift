import PhoneAgent
import Testing

/// The lock state machine: which source decides, and when a change is an event.
@Suite struct LockStateTests {
    @Test func nothingKnownIsHeadlessAndLockedUnlessConfiguredOtherwise() {
        let headless = LockState()
        #expect(headless.locked && headless.source == .headless)
        let desktop = LockState(withoutSource: .unlocked)
        #expect(!desktop.locked && desktop.source == nil)
    }

    @Test func aSourceThatAppearsDecidesAndOneThatGoesKeepsItsLastReading() {
        var state = LockState()
        #expect(state.apply(.logind(.session(locked: false))) == LockChange(locked: false, source: .logind))
        #expect(state.apply(.logind(.session(locked: true))) == LockChange(locked: true, source: .logind))
        // logind restarting, or the system bus lost: what it said last stands.
        #expect(state.apply(.logind(nil)) == nil)
        #expect(state.source == .logind)
        #expect(state.apply(.logind(.session(locked: false))) == LockChange(locked: false, source: .logind))
        #expect(state.apply(.logind(nil)) == nil)
        #expect(!state.locked && state.source == .logind)
        // A screensaver that goes away keeps its reading too.
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: true)) == LockChange(locked: true, source: .screenSaver("org.freedesktop.ScreenSaver")))
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: nil)) == nil)
        #expect(state.screenSavers == ["org.freedesktop.ScreenSaver": true])
        #expect(LockChange(locked: true, source: .headless).description == "locked (headless)")
    }

    @Test func aSeatWithNoScreenThatLocksIsHeadless() {
        var state = LockState()
        #expect(state.apply(.logind(.session(locked: false))) == LockChange(locked: false, source: .logind))
        // The user logs out of the board's console, or a text console is what is active.
        #expect(state.apply(.logind(.noScreen)) == LockChange(locked: true, source: .headless))
        #expect(state.apply(.logind(.session(locked: true))) == nil)
        #expect(state.source == .logind)
        // A screensaver that knows it is not active still means a screen someone may look at.
        _ = state.apply(.logind(.noScreen))
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: false)) == LockChange(locked: false, source: .screenSaver("org.gnome.ScreenSaver")))
        // Configured for a desktop, no screen that locks counts as unlocked.
        var desktop = LockState(withoutSource: .unlocked)
        #expect(desktop.apply(.logind(.session(locked: true))) == LockChange(locked: true, source: .logind))
        #expect(desktop.apply(.logind(.noScreen)) == LockChange(locked: false, source: nil))
    }

    @Test func logindOrAnyScreenSaverLocks() {
        var state = LockState(withoutSource: .unlocked)
        #expect(state.apply(.logind(.session(locked: false))) == nil)
        #expect(state.source == .logind)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: true)) == LockChange(locked: true, source: .screenSaver("org.gnome.ScreenSaver")))
        // Another source agreeing is not a change.
        #expect(state.apply(.logind(.session(locked: true))) == nil)
        #expect(state.source == .logind)
        #expect(state.apply(.logind(.session(locked: false))) == nil)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: false)) == LockChange(locked: false, source: .logind))
    }

    @Test func theManualOverrideWinsUntilCleared() {
        var state = LockState(withoutSource: .unlocked)
        #expect(state.apply(.logind(.session(locked: true))) == LockChange(locked: true, source: .logind))
        #expect(state.apply(.manual(override: false)) == LockChange(locked: false, source: .manual))
        #expect(state.apply(.logind(.session(locked: false))) == nil)
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: true)) == nil)
        #expect(state.apply(.manual(override: true)) == LockChange(locked: true, source: .manual))
        #expect(state.apply(.manual(override: nil)) == nil)
        #expect(state.source == .screenSaver("org.freedesktop.ScreenSaver"))
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: false)) == LockChange(locked: false, source: .logind))
    }

    @Test func sourcesNeverHeardAreIgnored() {
        var state = LockState(withoutSource: .unlocked)
        #expect(state.apply(.logind(nil)) == nil)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: nil)) == nil)
        #expect(state.logind == nil && state.screenSavers.isEmpty && state.source == nil)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: true))?.locked == true)
    }

    @Test func theReportedSourceDoesNotDependOnArrivalOrder() {
        var first = LockState(), second = LockState()
        _ = first.apply(.screenSaver("org.gnome.ScreenSaver", active: true))
        _ = first.apply(.screenSaver("org.freedesktop.ScreenSaver", active: true))
        _ = second.apply(.screenSaver("org.freedesktop.ScreenSaver", active: true))
        _ = second.apply(.screenSaver("org.gnome.ScreenSaver", active: true))
        #expect(first.source == second.source)
        #expect(LockChange(locked: true, source: .logind).description == "locked (logind)")
        #expect(LockChange(locked: false, source: nil).description == "unlocked (no source)")
    }
}
