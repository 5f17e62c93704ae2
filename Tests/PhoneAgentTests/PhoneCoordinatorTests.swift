import Dispatch
import Foundation
import Logging
import PhoneAgent
import RelayCore
import RelayFreedesktop
import RelayStore
import RelayWire
import Synchronization
import Testing

/// The phone's policy between the centre, the mirror and the apps (`PhoneCoordinator`), with a
/// real store and committer but no bus and no link: what relay-phone's D-Bus server and the
/// link drive.
@Suite struct PhoneCoordinatorTests {
    /// What reached the apps: answers (ids) and signals, in order, with a way to wait for them.
    private final class Apps: Sendable {
        private let heard = Mutex<(answers: [UInt32], signals: [NotificationSignal])>(([], []))
        private let arrived = DispatchSemaphore(value: 0)

        func answer(_ id: UInt32) {
            heard.withLock { $0.answers.append(id) }
            arrived.signal()
        }

        func emit(_ signals: [NotificationSignal]) { heard.withLock { $0.signals += signals } }

        var answers: [UInt32] { heard.withLock { $0.answers } }
        var signals: [NotificationSignal] { heard.withLock { $0.signals } }

        /// Waits for `count` answers; false if they do not come within a minute (a failure, not a pace).
        func waitForAnswers(_ count: Int) -> Bool {
            (0..<count).allSatisfy { _ in arrived.wait(timeout: .now() + 60) == .success }
        }
    }

    private static func withCoordinator(_ body: (PhoneCoordinator, PhoneLink, Apps) throws -> Void) throws {
        let folder = NSTemporaryDirectory() + "relay-coordinator-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        // Paired (with a wearable that is never reached): the mirror gives keys and logs changes.
        let directory = StateDirectory(path: folder)
        try directory.prepare()
        try KeyStore(directory: directory).setPartner(Data(repeating: 7, count: 32))
        let link = try PhoneLink(
            directory: directory,
            configuration: PhoneLink.Configuration(endpoint: .unix(path: folder + "/none.sock"), deviceName: "Test Phone"),
            logger: logger)
        defer { link.committer.stop() }
        let mirror = try MirrorCoordinator(link: link, settings: MirrorSettings(), logger: logger)
        let apps = Apps()
        let coordinator = PhoneCoordinator(
            effects: PhoneCoordinator.Effects(emit: apps.emit, log: { _, _ in }), mirror: mirror, isLocked: { true })
        defer { coordinator.stop() }
        try body(coordinator, link, apps)
    }

    private static func posted(_ summary: String, actions: [(String, String)] = []) -> PostedNotification {
        PostedNotification(appName: "chat", summary: summary, actions: actions.map { PostedNotification.Action(key: $0.0, label: $0.1) })
    }

    @Test func aRoundOfPostsIsAnsweredOnlyOnceItIsStored() throws {
        try Self.withCoordinator { coordinator, link, apps in
            coordinator.deliver(Self.posted("One"), from: ":1.7", deferring: true, answer: apps.answer)
            coordinator.deliver(Self.posted("Two"), from: ":1.7", deferring: true, answer: apps.answer)
            // In the centre already, but neither stored nor answered until the round ends.
            #expect(coordinator.delivered.map(\.content.title) == ["One", "Two"])
            #expect(try link.database.read(PhoneSchema.loadNotifications).isEmpty)
            #expect(apps.answers.isEmpty)
            coordinator.commitDeliveries()
            #expect(apps.waitForAnswers(2))
            #expect(apps.answers == [1, 2])
            let stored = try link.database.read(PhoneSchema.loadNotifications)
            #expect(stored.map(\.centreID) == [1, 2])
            #expect(stored.allSatisfy { $0.key != nil }, "locked: both mirrored, with keys")
        }
    }

    @Test func aResponseFromTheWearableActsOnceAndIsHeardOnceStored() throws {
        try Self.withCoordinator { coordinator, link, apps in
            coordinator.deliver(Self.posted("Lunch?", actions: [("yes", "Yes")]), from: ":1.7", deferring: false, answer: apps.answer)
            #expect(apps.waitForAnswers(1))
            let key = try #require(try link.database.read(PhoneSchema.loadNotifications).first?.key)
            var event = Relay_V1_WearableEvent()
            var response = Relay_V1_Response()
            response.notificationKey = key
            response.action = "yes"
            event.response = response
            try coordinator.apply(seq: 1, event: event)
            // Returned only once stored: the app has heard, the centre forgot it, the cursor moved.
            #expect(apps.signals == [.actionInvoked(id: 1, key: "yes"), .closed(id: 1, reason: .dismissedByUser)])
            #expect(coordinator.delivered.isEmpty)
            #expect(try link.database.read { db in try LinkLogTables.state(db).appliedThrough } == 1)
            #expect(try link.database.read(PhoneSchema.loadNotifications).isEmpty)
            // The same entry again (an overlapping connection, a resend): nothing more happens.
            try coordinator.apply(seq: 1, event: event)
            #expect(apps.signals.count == 2)
        }
    }

    @Test func thePhonesOwnCloseIsAnnouncedOnceStoredAndNotKeptForACrash() throws {
        try Self.withCoordinator { coordinator, link, apps throws in
            coordinator.deliver(Self.posted("Build done"), from: ":1.7", deferring: false, answer: apps.answer)
            #expect(apps.waitForAnswers(1))
            coordinator.act { centre in centre.close(1, reason: .closedByCall) }
            #expect(apps.signals == [.closed(id: 1, reason: .closedByCall)])
            #expect(try link.database.read(PhoneSchema.loadNotifications).isEmpty)
            // The phone's own closes are not stored for a crash: only the wearable's responses are.
            #expect(try link.database.read(SignalOutboxTable.load).isEmpty)
        }
    }
}
