import Foundation
import PhoneAgent
import RelayCore
import RelayWire
import Testing

/// The phone's do not disturb as a value, and what the mirror makes of it.
@Suite struct PhoneDoNotDisturbTests {
    let now = Date(timeIntervalSince1970: 1_812_361_260)

    @Test func inhibitionsEndWithTheirCookieOrTheirOwnerAndManualOneWins() {
        var dnd = PhoneDoNotDisturb()
        #expect(dnd.current(at: now) == nil)
        let first = dnd.inhibit(application: "org.example.Presenter", reason: "Presenting", owner: ":1.7")
        let second = dnd.inhibit(application: "org.example.Game", reason: "Full screen", owner: ":1.9")
        #expect(first != 0 && second != first)
        #expect(dnd.current(at: now) == DoNotDisturb(source: .inhibitor(application: "org.example.Presenter")))
        // Only its owner releases a cookie.
        let byOther = dnd.uninhibit(cookie: first, owner: ":1.9")
        let byOwner = dnd.uninhibit(cookie: first, owner: ":1.7")
        #expect(!byOther && byOwner)
        #expect(dnd.current(at: now) == DoNotDisturb(source: .inhibitor(application: "org.example.Game")))
        // Turned on by hand, until a time: it wins while it lasts.
        dnd.setManual(on: true, until: now + 60)
        #expect(dnd.current(at: now)?.source == .manual)
        #expect(dnd.current(at: now + 60)?.source == .inhibitor(application: "org.example.Game"))
        let left = dnd.ownerLeft(":1.9")
        #expect(left.map(\.application) == ["org.example.Game"])
        #expect(dnd.current(at: now + 60) == nil)
        dnd.setManual(on: false)
        #expect(dnd.current(at: now) == nil)
    }

    @Test func whileItIsOnTheMirrorAsksNoAlertButForTimeSensitiveAndCritical() {
        var mirror = PhoneMirror()
        let dnd = DoNotDisturb(source: .inhibitor(application: "org.example.Presenter"))
        func posted(_ id: UInt32, _ level: InterruptionLevel, locked: Bool = true) -> (mayAlert: Bool, decision: String, reason: String) {
            let item = MirrorItem(
                centreID: id, appName: "chat", content: NotificationContent(title: "N\(id)", interruptionLevel: level), category: nil,
                deliveredAt: now)
            let outcome = mirror.posted(item, replaced: false, locked: locked, policy: AlertPolicy(doNotDisturb: dnd, minimumGap: 0), at: now)
            guard case .upsert(let upsert)? = outcome.changes.last?.kind else { return (false, outcome.decision, "") }
            return (upsert.mayAlert, outcome.decision, upsert.noAlertReason)
        }
        let active = posted(1, .active)
        #expect(!active.mayAlert && active.decision == "mirrored without alert: do not disturb (inhibited by org.example.Presenter)")
        // The wearable hears why, for its history.
        #expect(active.reason == "do not disturb (inhibited by org.example.Presenter)")
        var unlocked = PhoneMirror(settings: MirrorSettings(whenUnlocked: .silent))
        let item = MirrorItem(centreID: 9, appName: "chat", content: NotificationContent(title: "N9"), category: nil, deliveredAt: now)
        guard case .upsert(let upsert)? = unlocked.posted(item, replaced: false, locked: false, at: now).changes.last?.kind else {
            Issue.record("an unlocked phone with when_unlocked = silent mirrors")
            return
        }
        #expect(!upsert.mayAlert && upsert.noAlertReason == "the phone was unlocked")
        #expect(posted(2, .timeSensitive).mayAlert)
        #expect(posted(3, .critical).mayAlert)
        // Passive is the wearable's to keep silent, as without do not disturb.
        #expect(posted(4, .passive).mayAlert)
    }
}
