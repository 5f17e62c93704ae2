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
        _ = dnd.changePreferences { $0.setDoNotDisturb(.on(until: now + 60), at: now) }
        #expect(dnd.current(at: now)?.source == .manual)
        #expect(dnd.current(at: now + 60)?.source == .inhibitor(application: "org.example.Game"))
        let left = dnd.ownerLeft(":1.9")
        #expect(left.map(\.application) == ["org.example.Game"])
        #expect(dnd.current(at: now + 60) == nil)
        _ = dnd.changePreferences { $0.setDoNotDisturb(.off, at: now) }
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

/// What the mirror does with the filter rule that matched.
@Suite struct MirrorFilterRuleTests {
    let now = Date(timeIntervalSince1970: 1_812_361_260)

    @Test func aDroppedOneStaysOnThePhoneASilentOneAsksNoAlertAndAnAlwaysAlertingOneGoesThroughDoNotDisturb() {
        var mirror = PhoneMirror()
        let dnd = AlertPolicy(doNotDisturb: DoNotDisturb(source: .manual), minimumGap: 0)
        func item(_ id: UInt32) -> MirrorItem {
            MirrorItem(centreID: id, appName: "Mail", content: NotificationContent(title: "N\(id)"), category: nil, deliveredAt: now)
        }
        let dropped = mirror.posted(item(1), replaced: false, locked: true, rule: MatchedRule(name: "spam", action: .drop), at: now)
        #expect(dropped.changes.isEmpty && dropped.decision == "not mirrored: filter rule \"spam\": drop")
        let silent = mirror.posted(item(2), replaced: false, locked: true, rule: MatchedRule(name: "offers", action: .silent), at: now)
        guard case .upsert(let quiet)? = silent.changes.last?.kind else {
            Issue.record("a silent one is mirrored")
            return
        }
        #expect(!quiet.mayAlert && quiet.noAlertReason == "filter rule \"offers\": silent")
        let door = mirror.posted(item(3), replaced: false, locked: true, policy: dnd, rule: MatchedRule(name: "door", action: .alwaysAlert), at: now)
        guard case .upsert(let loud)? = door.changes.last?.kind else {
            Issue.record("an always-alerting one is mirrored")
            return
        }
        #expect(loud.mayAlert && loud.alwaysAlertRule == "door", "\(door.decision)")
        // A rule that drops an update of one already mirrored takes it off the wearable.
        let update = mirror.posted(item(2), replaced: true, locked: true, rule: MatchedRule(name: "spam", action: .drop), at: now)
        guard case .remove? = update.changes.last?.kind else {
            Issue.record("the wearable's copy is removed: \(update.changes)")
            return
        }
    }
}
