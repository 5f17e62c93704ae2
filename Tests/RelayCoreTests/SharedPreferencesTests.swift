import Foundation
import Synchronization
import RelayCore
import Testing

/// The wishes both devices keep: item by item the newest change wins, whatever order the
/// changes arrive in, and what comes back changes nothing.
@Suite struct SharedPreferencesTests {
    let t0 = Date(timeIntervalSince1970: 1_812_361_260)

    @Test func theNewestChangeOfEachItemWinsOnBothSidesWhateverTheOrder() {
        var phone = SharedPreferences()
        var wearable = SharedPreferences()
        // Apart: the wearable turns do not disturb on and mutes Chat; the phone, later, turns it
        // off and mutes Mail.
        let a = wearable.setDoNotDisturb(.on(until: nil), at: t0)
        let b = wearable.mute(.app("Chat"), until: nil, at: t0 + 1)
        let c = phone.setDoNotDisturb(.off, at: t0 + 2)
        let d = phone.mute(.app("Mail"), until: t0 + 3600, at: t0 + 3)
        // Each receives the other's changes, in any order.
        phone.merge(b)
        phone.merge(a)
        wearable.merge(d)
        wearable.merge(c)
        #expect(phone == wearable)
        #expect(phone.manualDoNotDisturb(at: t0 + 4) == nil)
        #expect(phone.activeMutes(at: t0 + 4).map(\.scope) == [.app("Chat"), .app("Mail")])
        // An echo, or an older change, changes nothing.
        #expect(phone.merge(c).isEmpty && phone.merge(a).isEmpty)
    }

    @Test func aChangeMadeHereWinsEvenWithAClockBehindTheLastOne() {
        var preferences = SharedPreferences()
        preferences.merge({ var other = SharedPreferences(); _ = other.setDoNotDisturb(.on(until: nil), at: t0 + 60); return other }())
        // This clock is a minute behind: the change is stamped just after the one it replaces.
        let change = preferences.setDoNotDisturb(.off, at: t0)
        #expect(change.doNotDisturb?.changedAt == SharedPreferences.millisecond(t0 + 60.001))
        #expect(preferences.manualDoNotDisturb == nil)
    }

    @Test func twoChangesInTheSameMillisecondPickTheSameWinnerOnBothSides() {
        var one = SharedPreferences()
        var other = SharedPreferences()
        let on = one.setDoNotDisturb(.on(until: nil), at: t0)
        let off = other.setDoNotDisturb(.off, at: t0)
        one.merge(off)
        other.merge(on)
        #expect(one == other)
    }

    @Test func twoMutesInTheSameMillisecondEndingWithinASecondPickTheSameWinner() {
        var one = SharedPreferences()
        var other = SharedPreferences()
        let a = one.mute(.app("Mail"), until: t0 + 3600.2, at: t0)
        let b = other.mute(.app("Mail"), until: t0 + 3600.7, at: t0)
        one.merge(b)
        other.merge(a)
        #expect(one == other && one.allMutes.first?.until == SharedPreferences.millisecond(t0 + 3600.7))
    }

    @Test func aRemovedMuteStaysRemovedWhenTheOlderMuteArrivesLateAndIsForgottenAfterAYear() {
        var wearable = SharedPreferences()
        let muted = wearable.mute(.thread(app: "Chat", thread: "4"), until: nil, at: t0)
        var phone = SharedPreferences()
        phone.merge(muted)
        let removed = phone.unmute(.thread(app: "Chat", thread: "4"), at: t0 + 10)
        wearable.merge(removed)
        wearable.merge(muted)
        #expect(wearable.activeMutes(at: t0 + 20).isEmpty)
        #expect(phone.unmute(.app("Nobody"), at: t0).isEmpty)
        wearable.prune(at: t0 + 300 * 86_400)
        #expect(!wearable.mutes.isEmpty)
        wearable.prune(at: t0 + 366 * 86_400)
        #expect(wearable.mutes.isEmpty)
    }

    @Test func theWishesJoinTheConfigurationsPolicy() throws {
        var preferences = SharedPreferences()
        _ = preferences.mute(.app("Mail"), until: t0 + 60, at: t0)
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let base = AlertPolicy(quietHours: QuietHours(start: 22 * 60, end: 7 * 60, timeZone: berlin))
        #expect(preferences.applied(to: base).quietHours == base.quietHours)
        _ = preferences.setQuietHours(nil, at: t0)
        _ = preferences.setDoNotDisturb(.on(until: t0 + 30), at: t0)
        let policy = preferences.applied(to: base)
        #expect(policy.quietHours == nil && policy.mutes == [Mute(.app("Mail"), until: t0 + 60)])
        #expect(policy.decide(.init(level: .active, app: "Chat"), lastAlert: nil, at: t0 + 1).reason == .doNotDisturb(DoNotDisturb(source: .manual, until: t0 + 30)))
        #expect(policy.decide(.init(level: .active, app: "Chat"), lastAlert: nil, at: t0 + 31).outcome == .alert)
        // Not shared: the wearable's own do not disturb stands instead.
        #expect(preferences.applied(to: base, doNotDisturbShared: false).doNotDisturb == nil)
    }

    @Test func muteDurationsAndAbsurdEnds() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(MuteDuration.hour.until(from: t0, in: berlin) == t0 + 3600)
        #expect(MuteDuration.always.until(from: t0, in: berlin) == nil)
        let midnight = try #require(MuteDuration.today.until(from: t0, in: berlin))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        #expect(midnight > t0 && midnight.timeIntervalSince(t0) <= 86_400 && calendar.component(.hour, from: midnight) == 0)
        #expect(Mute.problem(until: nil, at: t0) == nil && Mute.problem(until: t0 + 60, at: t0) == nil)
        #expect(Mute.problem(until: t0 - 1, at: t0)?.contains("would end before now") == true)
        #expect(Mute.problem(until: Date(timeIntervalSince1970: 1e300), at: t0)?.contains("more than a year away") == true)
        #expect(Mute.problem(until: t0 + 400 * 86_400, at: t0)?.contains("more than a year away") == true)
    }
}

/// Filter rules match on every condition they give; the first that matches decides.
@Suite struct FilterRulesTests {
    @Test func theFirstRuleWhoseEveryConditionHoldsDecides() {
        let rules = FilterRules([
            FilterRule(name: "spam", app: "Spam", action: .drop),
            FilterRule(name: "offers", category: "email", title: { $0.contains("sale") }, action: .silent),
            FilterRule(name: "urgent mail", category: "email", level: .critical, action: .alwaysAlert),
        ])
        func content(_ title: String, category: String? = nil, level: InterruptionLevel = .active) -> NotificationContent {
            var content = NotificationContent(title: title, interruptionLevel: level)
            if let category { content.userInfo[NotificationContent.freedesktopCategoryKey] = .string(category) }
            return content
        }
        #expect(rules.match(app: "Spam", content: content("anything")) == MatchedRule(name: "spam", action: .drop))
        // A category's class matches its kinds; another class does not.
        #expect(rules.match(app: "Mail", content: content("summer sale", category: "email.arrived"))?.name == "offers")
        #expect(rules.match(app: "Mail", content: content("summer sale", category: "emailish")) == nil)
        #expect(rules.match(app: "Mail", content: content("server down", category: "email", level: .critical))?.action == .alwaysAlert)
        #expect(rules.match(app: "Mail", content: content("server down", category: "email")) == nil)
        // A rule's patterns read at most 4 KiB of a text.
        let seen = Mutex(0)
        let long = FilterRules([FilterRule(name: "n", body: { text in seen.withLock { $0 = text.utf8.count }; return false }, action: .drop)])
        _ = long.match(app: "A", content: NotificationContent(body: String(repeating: "x", count: 100_000)))
        #expect(seen.withLock { $0 } == FilterRule.matchedBytes)
    }
}
