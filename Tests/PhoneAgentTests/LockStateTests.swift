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

    @Test func aSourceThatAppearsDecidesAndOneThatGoesLeavesTheBoardHeadless() {
        var state = LockState()
        #expect(state.apply(.logind(locked: false)) == LockChange(locked: false, source: .logind))
        #expect(state.apply(.logind(locked: true)) == LockChange(locked: true, source: .logind))
        // Locked by logind, then logind gone: still locked, now as a board with no screen.
        #expect(state.apply(.logind(locked: nil)) == nil)
        #expect(state.source == .headless)
        // A screensaver that is known and inactive means a screen someone may look at.
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: false)) == LockChange(locked: false, source: .screenSaver("org.freedesktop.ScreenSaver")))
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: nil)) == LockChange(locked: true, source: .headless))
        #expect(LockChange(locked: true, source: .headless).description == "locked (headless)")
    }

    @Test func logindOrAnyScreenSaverLocks() {
        var state = LockState(withoutSource: .unlocked)
        #expect(state.apply(.logind(locked: false)) == nil)
        #expect(state.source == .logind)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: true)) == LockChange(locked: true, source: .screenSaver("org.gnome.ScreenSaver")))
        // Another source agreeing is not a change.
        #expect(state.apply(.logind(locked: true)) == nil)
        #expect(state.source == .logind)
        #expect(state.apply(.logind(locked: false)) == nil)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: false)) == LockChange(locked: false, source: .logind))
    }

    @Test func theManualOverrideWinsUntilCleared() {
        var state = LockState(withoutSource: .unlocked)
        #expect(state.apply(.logind(locked: true)) == LockChange(locked: true, source: .logind))
        #expect(state.apply(.manual(override: false)) == LockChange(locked: false, source: .manual))
        #expect(state.apply(.logind(locked: false)) == nil)
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: true)) == nil)
        #expect(state.apply(.manual(override: true)) == LockChange(locked: true, source: .manual))
        #expect(state.apply(.manual(override: nil)) == nil)
        #expect(state.source == .screenSaver("org.freedesktop.ScreenSaver"))
        #expect(state.apply(.screenSaver("org.freedesktop.ScreenSaver", active: nil)) == LockChange(locked: false, source: .logind))
    }

    @Test func unknownSourcesAreIgnored() {
        var state = LockState(withoutSource: .unlocked)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: true))?.locked == true)
        // logind going away does not unlock a phone a screensaver still locks.
        #expect(state.apply(.logind(locked: nil)) == nil)
        #expect(state.apply(.screenSaver("org.gnome.ScreenSaver", active: nil)) == LockChange(locked: false, source: nil))
        #expect(state.screenSavers.isEmpty)
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
