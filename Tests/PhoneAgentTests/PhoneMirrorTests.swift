import Foundation
import PhoneAgent
import RelayCore
import RelayWire
import Testing

/// The mirror policy (Docs/PHONE.md, "Mirroring") as a value: centre events in, the wearable's
/// changes out; no database, no link.
@Suite struct PhoneMirrorTests {
    let delivered = Date(timeIntervalSince1970: 1_812_361_260)

    private func item(_ id: UInt32, _ title: String = "Lunch?") -> MirrorItem {
        MirrorItem(centreID: id, appName: "chat", content: NotificationContent(title: title), category: nil, deliveredAt: delivered)
    }

    /// The upserts among `changes`: key, revision and whether each may alert.
    private func upserts(_ changes: [Relay_V1_Change]) -> [String] {
        changes.compactMap { change in
            guard case .upsert(let upsert)? = change.kind else { return nil }
            return "key \(upsert.key) revision \(upsert.revision)\(upsert.mayAlert ? " may alert" : "")"
        }
    }

    @Test func onlyANewNotificationOnALockedPhoneMayAlert() {
        var mirror = PhoneMirror()
        #expect(mirror.posted(item(1), replaced: false, locked: false, at: delivered).changes.isEmpty, "unlocked: stays on the phone")
        #expect(mirror.mirrored[1] == nil)
        var outcome = mirror.posted(item(2), replaced: false, locked: true, at: delivered)
        #expect(upserts(outcome.changes) == ["key 1 revision 1 may alert"])
        outcome = mirror.posted(item(2, "Lunch at one?"), replaced: true, locked: true, at: delivered)
        #expect(upserts(outcome.changes) == ["key 1 revision 2"], "an update in place never alerts again")

        var silent = PhoneMirror(settings: MirrorSettings(whenUnlocked: .silent))
        #expect(upserts(silent.posted(item(3), replaced: false, locked: false, at: delivered).changes) == ["key 1 revision 1"])
    }

    @Test func aRemovalOutranksEveryUpsertAndASilentUpdateRemoves() {
        var mirror = PhoneMirror()
        _ = mirror.posted(item(1), replaced: false, locked: true, at: delivered)
        _ = mirror.posted(item(1, "again"), replaced: true, locked: true, at: delivered)
        let removal = mirror.removed(centreID: 1, reason: .dismissedOnPhone)
        guard case .remove(let remove)? = removal.changes.first?.kind else {
            Issue.record("no remove: \(removal.changes)")
            return
        }
        #expect(remove.key == 1 && remove.revision == 3 && remove.reason == .dismissedOnPhone)
        #expect(mirror.removed(centreID: 1, reason: .withdrawn).changes.isEmpty, "removed once")

        _ = mirror.posted(item(2), replaced: false, locked: true, at: delivered)
        let emptied = mirror.posted(item(2, ""), replaced: true, locked: true, at: delivered)
        #expect(emptied.changes.count == 1 && emptied.changes.first?.remove.reason == .withdrawn)
    }

    /// PROTOCOL.md §13.1: a notification answered on the wearable is not shown again when a
    /// snapshot resends the same revision, so a snapshot keeps revisions as they are.
    @Test func aSnapshotResendsEachNotificationWithItsRevisionAndNeverAlerts() {
        var mirror = PhoneMirror()
        _ = mirror.posted(item(1), replaced: false, locked: true, at: delivered)
        _ = mirror.posted(item(2), replaced: false, locked: true, at: delivered)
        _ = mirror.posted(item(2, "updated"), replaced: true, locked: true, at: delivered)
        for epoch in [2, 3] as [UInt64] {
            let snapshot = mirror.snapshot([item(1), item(2, "updated"), item(9)], epoch: epoch)
            #expect(upserts(snapshot.changes) == ["key 1 revision 1", "key 2 revision 2"], "epoch \(epoch)")
            #expect(snapshot.changes.first?.snapshotBegin.epoch == epoch && snapshot.changes.last?.snapshotEnd.epoch == epoch)
        }
        // A later change still counts on from there.
        #expect(upserts(mirror.posted(item(2, "again"), replaced: true, locked: true, at: delivered).changes) == ["key 2 revision 3"])
    }

    @Test func aScheduledRequestCarriesItsFilterRuleAndADroppingOneStaysOffTheWearable() {
        var mirror = PhoneMirror()
        var stretch = ScheduleItem(
            appName: "coach", identifier: "stretch", content: NotificationContent(title: "Stretch"), category: nil,
            trigger: .timeInterval(seconds: 3600, repeats: true), scheduledAt: delivered, timeZone: "UTC")
        func upsert(_ outcome: PhoneMirror.Outcome) -> Relay_V1_ScheduleUpsert? {
            outcome.changes.compactMap { if case .scheduleUpsert(let upsert)? = $0.kind { upsert } else { nil } }.first
        }
        let plain = mirror.scheduled(stretch)
        #expect(upsert(plain).map { [$0.silentRule, $0.alwaysAlertRule] } == ["", ""])
        #expect(mirror.scheduleRules[AppRequests.name(appID: "coach", identifier: "stretch")] == .some(nil))

        stretch.rule = MatchedRule(name: "quiet-coach", action: .silent)
        #expect(upsert(mirror.scheduled(stretch)).map { [$0.silentRule, $0.alwaysAlertRule] } == ["quiet-coach", ""])
        stretch.rule = MatchedRule(name: "loud-coach", action: .alwaysAlert)
        #expect(upsert(mirror.scheduled(stretch)).map { [$0.silentRule, $0.alwaysAlertRule] } == ["", "loud-coach"])

        stretch.rule = MatchedRule(name: "no-coach", action: .drop)
        let dropped = mirror.scheduled(stretch)
        #expect(dropped.changes.map { $0.scheduleRemove.key } == [upsert(plain)?.key], "taken off the wearable")
        #expect(dropped.decision == "schedule not mirrored: filter rule \"no-coach\": drop")
        #expect(mirror.schedules[AppRequests.name(appID: "coach", identifier: "stretch")] == nil)
        #expect(mirror.scheduled(stretch).changes.isEmpty, "still dropped: nothing to send")
        #expect(mirror.scheduleRules[AppRequests.name(appID: "coach", identifier: "stretch")] == .some(stretch.rule))

        stretch.rule = nil
        #expect(upsert(mirror.scheduled(stretch)) != nil, "no longer dropped: back on the wearable")
    }
}
