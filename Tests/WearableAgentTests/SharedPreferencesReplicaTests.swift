import Foundation
import RelayCore
import RelayWire
import Testing

@testable import WearableAgent

/// The shared wishes in the wearable's replica: merged from the phone's log, kept across a
/// restart, handed back to a phone that starts a new epoch, and applied to the policy.
@Suite struct SharedPreferencesReplicaTests {
    let t0 = Date(timeIntervalSince1970: 1_795_732_200)

    private func change(_ preferences: SharedPreferences) -> Relay_V1_Change {
        Relay_V1_Change.with { $0.preferences = Relay_V1_Preferences(preferences) }
    }

    @Test func thePhonesWishesAreMergedKeptAcrossARestartAndSilenceTheApp() throws {
        let stored = try StoredReplica()
        var phone = SharedPreferences()
        _ = phone.mute(.app("Mail"), until: nil, at: t0)
        _ = phone.setDoNotDisturb(.on(until: nil), at: t0)
        let effects = try stored.apply(change(phone))
        #expect(effects == [.preferencesChanged(phone, shared: true)])
        // An echo, or the same again, changes nothing.
        #expect(try stored.apply(change(phone)).isEmpty)
        try stored.restart()
        #expect(stored.replica.contents.preferences == phone)

        var upsert = ReplicaTests.upsert(1, revision: 1)
        upsert.upsert.appKey = 7
        _ = try stored.apply(Relay_V1_Change.with { $0.appInfo = .with { $0.key = 7; $0.name = "Mail" } })
        let alerted = try stored.apply(upsert).compactMap { effect -> Relay_V1_Alerted? in
            if case .report(.alerted(let report)) = effect { report } else { nil }
        }
        #expect(alerted.first?.reason == "muted app \"Mail\"", "\(alerted)")
    }

    @Test func aNewEpochGetsEveryWishHeldHere() {
        var replica = Replica()
        var wearable = SharedPreferences()
        _ = wearable.mute(.app("Chat"), until: nil, at: t0)
        replica.contents.preferences = wearable
        let effects = replica.apply(Relay_V1_Change.with { $0.snapshotBegin.epoch = 9 })
        let reported = effects.compactMap { effect -> Relay_V1_Preferences? in
            if case .report(.preferences(let preferences)) = effect { preferences } else { nil }
        }
        #expect(reported.map(\.preferences) == [wearable])
    }

    @Test func theWearablesOwnDoNotDisturbStandsWhenItIsNotShared() {
        var contents = ReplicaContents()
        _ = contents.preferences.setDoNotDisturb(.on(until: nil), at: t0)
        #expect(contents.alertPolicy(base: AlertPolicy(), sharesDoNotDisturb: true).doNotDisturb?.source == .manual)
        #expect(contents.alertPolicy(base: AlertPolicy(), sharesDoNotDisturb: false).doNotDisturb == nil)
        _ = contents.ownDoNotDisturb.setDoNotDisturb(.on(until: t0 + 60), at: t0)
        #expect(contents.alertPolicy(base: AlertPolicy(), sharesDoNotDisturb: false).doNotDisturb == DoNotDisturb(source: .manual, until: t0 + 60))
    }

    @Test func thePhonesThreadMutesGoWithThePhone() {
        var preferences = SharedPreferences()
        _ = preferences.mute(.app("Chat"), until: nil, at: t0)
        _ = preferences.mute(.thread(app: "Chat", thread: "4"), until: nil, at: t0)
        #expect(preferences.forgettingThreads().mutes.keys.map { $0 } == [.app("Chat")])
    }
}

/// One alert per thread in a burst, counted from what the wearable remembers alerting.
@Suite struct ThreadBurstDecisionTests {
    @Test func theSecondMessageOfAThreadWithinTheBurstArrivesSilently() {
        var replica = Replica()
        var context = AlertContext(policy: AlertPolicy(minimumGap: 0), now: Date(timeIntervalSince1970: 1_795_732_200))
        func message(_ key: UInt64, thread: UInt32) -> Relay_V1_Change {
            var change = ReplicaTests.upsert(key, revision: 1)
            change.upsert.content.threadKey = thread
            return change
        }
        let first = replica.apply(message(1, thread: 4), context: context)
        #expect(ReplicaTests.alerts(first) == [true])
        context.memory.note(first, in: replica.contents, at: context.now)
        context.now += 10
        let second = replica.apply(message(2, thread: 4), context: context)
        #expect(ReplicaTests.alerts(second) == [false])
        #expect(second.contains { if case .report(.alerted(let a)) = $0 { a.reason.hasPrefix("part of a burst: its thread alerted 10 s ago") } else { false } })
        // Another thread, or the same after the window, alerts.
        #expect(ReplicaTests.alerts(replica.apply(message(3, thread: 5), context: context)) == [true])
        context.now += 25
        #expect(ReplicaTests.alerts(replica.apply(message(4, thread: 4), context: context)) == [true])
    }
}
