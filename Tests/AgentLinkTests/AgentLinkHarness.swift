import Foundation
import Logging
import PhoneAgent
import RelayCore
import RelayLinkRuntime
import RelayStore
import RelayTestSupport
import RelayTransport
import RelayWire
import Synchronization
import WearableAgent
import WearableUI

/// A phone link and a wearable link in one process, over a Unix socket in a temporary
/// folder, with a minimal owner on the phone side that records what comes back.
final class AgentLinkHarness: Sendable {
    let folder: String
    let wearable: WearableLink
    let phone: PhoneLink
    let coordinator: MirrorCoordinator
    let owner: RecordingOwner
    /// What the wearable's screen was told.
    let screen = EventLog<UIEvent>()
    /// The link simulator's outage: the phone reaches the wearable through a simulator.
    let outage = OutageSwitch()
    private let tasks = Mutex<[Task<Void, Never>]>([])

    private init(
        name: String, heartbeat: Duration = .seconds(5), offlineAlertWindow: TimeInterval = 0,
        clock: any WearableClock = SystemClock(), maxAttachmentBytes: Int = 0,
        logCompactionMinimum: Int = PhoneLink.defaultLogCompactionMinimum, pairingTimeout: Duration = .seconds(120),
        linkClock: any LinkClock = SystemLinkClock(), phoneClock: @escaping @Sendable () -> Date = { Date() },
        alertPolicy: AlertPolicy = AlertPolicy(minimumGap: 0)
    ) throws {
        folder = NSTemporaryDirectory() + "relay-agentlink-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let screen = self.screen
        var capabilities = Relay_V1_Capabilities()
        capabilities.screenWidth = 240
        capabilities.screenHeight = 240
        capabilities.maxAttachmentBytes = UInt32(maxAttachmentBytes)
        var wearableConfiguration = WearableLink.Configuration(
            deviceName: "Test Wearable", capabilities: capabilities, heartbeat: heartbeat, offlineAlertWindow: offlineAlertWindow,
            clock: clock, pairingTimeout: pairingTimeout, linkClock: linkClock)
        // Delivery tests post alerting notifications back to back: no gap unless a test asks.
        wearableConfiguration.alertPolicy = alertPolicy
        wearable = try WearableLink(
            directory: StateDirectory(path: folder + "/wearable"),
            configuration: wearableConfiguration,
            logger: logger, present: { screen.append($0) })
        var phoneConfiguration = PhoneLink.Configuration(
            endpoint: .unix(path: folder + "/sim.sock"), deviceName: "Test Phone", heartbeat: heartbeat,
            reconnectMinimum: .milliseconds(50), reconnectMaximum: .milliseconds(400),
            logCompactionMinimum: logCompactionMinimum)
        phoneConfiguration.wallClock = phoneClock
        phone = try PhoneLink(directory: StateDirectory(path: folder + "/phone"), configuration: phoneConfiguration, logger: logger)
        coordinator = try MirrorCoordinator(link: phone, settings: MirrorSettings(), logger: logger)
        owner = RecordingOwner(coordinator: coordinator)
        phone.attach(owner)
    }

    /// Takes the wearable out of range (the simulator's outage) and waits until its screen
    /// says so; false if it never does.
    func goOutOfRange() async -> Bool {
        let before = screen.elements.count
        outage.begin()
        return await screen.wait { PairAndMirrorTests.linkStates(Array($0.dropFirst(before))).last == .outOfRange }
    }

    /// A second wearable link on this wearable's state, as an agent started again on it would
    /// have it (its screen is not followed).
    func reopenedWearable() throws -> WearableLink {
        var capabilities = Relay_V1_Capabilities()
        capabilities.screenWidth = 240
        return try WearableLink(
            directory: StateDirectory(path: folder + "/wearable"),
            configuration: WearableLink.Configuration(deviceName: "Reopened", capabilities: capabilities),
            logger: Logger(label: "reopened"), present: { _ in })
    }

    /// Another phone, unknown to the wearable, that reaches its link socket directly (not
    /// through the simulator) or through `connector`; its database writer is the caller's to stop.
    func stranger(connector: (any WearableConnector)? = nil) throws -> PhoneLink {
        var logger = Logger(label: "stranger")
        logger.logLevel = .critical
        return try PhoneLink(
            directory: StateDirectory(path: folder + "/stranger"),
            configuration: PhoneLink.Configuration(endpoint: .unix(path: folder + "/link.sock"), deviceName: "Stranger", connector: connector),
            logger: logger)
    }

    /// Starts the wearable's listener (returning once it listens) and the phone's session loop.
    func start() async {
        let listening = Gate()
        let wearable = wearable
        let endpoint = TransportEndpoint.unix(path: folder + "/link.sock")
        let serving = Task { _ = try? await wearable.serve(on: endpoint) { _ in listening.open() } }
        await listening.wait()
        let simulating = Gate()
        let simulator = LinkSimulator(conditions: LinkConditions(), upstream: endpoint, outage: outage)
        let folder = folder
        let simulation = Task { _ = try? await simulator.run(on: .unix(path: folder + "/sim.sock")) { _ in simulating.open() } }
        await simulating.wait()
        let phone = phone
        let running = Task { await phone.run() }
        let firing = Task { await wearable.runLocalFiring() }
        tasks.withLock { $0 += [serving, simulation, running, firing] }
    }

    /// Pairs the two, confirming the code on both sides; returns the codes each side showed.
    func pair() async throws -> (phone: String, wearable: String) {
        let offer = try await phone.beginPairing()
        guard await screen.wait(until: { $0.contains { if case .pairingCode = $0 { true } else { false } } }) else {
            throw HarnessError("the wearable never showed a code")
        }
        let shown = screen.elements.compactMap { if case .pairingCode(let code) = $0 { code } else { nil } }.last ?? ""
        wearable.confirmPairing(true, code: shown)
        _ = try await phone.finishPairing(accepted: true)
        return (offer.code, shown)
    }

    /// The usual start of a test: both sides running, paired, and their session up (returned).
    func startPaired() async throws -> Bool {
        await start()
        _ = try await pair()
        return await waitUntilConnected()
    }

    /// Waits for the session with the partner to be up on both sides.
    func waitUntilConnected() async -> Bool {
        await screen.wait { $0.contains { $0 == .link(.connected) } }
    }

    /// Runs `body` with a new harness; then stops both sides and, once they have ended, removes
    /// their folder (what they store on the way down finds its database still there).
    static func with<Result>(
        name: String = #function, heartbeat: Duration = .seconds(5), offlineAlertWindow: TimeInterval = 0,
        clock: any WearableClock = SystemClock(), maxAttachmentBytes: Int = 0,
        logCompactionMinimum: Int = PhoneLink.defaultLogCompactionMinimum, pairingTimeout: Duration = .seconds(120),
        linkClock: any LinkClock = SystemLinkClock(), phoneClock: @escaping @Sendable () -> Date = { Date() },
        alertPolicy: AlertPolicy = AlertPolicy(minimumGap: 0),
        _ body: (AgentLinkHarness) async throws -> Result
    ) async throws -> Result {
        let harness = try AgentLinkHarness(
            name: name, heartbeat: heartbeat, offlineAlertWindow: offlineAlertWindow, clock: clock, maxAttachmentBytes: maxAttachmentBytes,
            logCompactionMinimum: logCompactionMinimum, pairingTimeout: pairingTimeout, linkClock: linkClock, phoneClock: phoneClock,
            alertPolicy: alertPolicy)
        do {
            let result = try await body(harness)
            await harness.stop()
            return result
        } catch {
            await harness.stop()
            throw error
        }
    }

    private func stop() async {
        let running = tasks.withLock { $0 }
        for task in running { task.cancel() }
        for task in running { await task.value }
        // The phone's database writer has a thread of its own.
        phone.committer.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// The phone side's owner: applies responses by removing the notification, and records them.
final class RecordingOwner: PhoneLinkOwner {
    let coordinator: MirrorCoordinator
    let responses = EventLog<Relay_V1_Response>()
    let alerted = EventLog<Relay_V1_Alerted>()
    /// What this minimal centre holds, by id: what a snapshot of it sends. Its lock also keeps
    /// the owner's calls in order, as the centre's lock does.
    private let centre = Mutex<[UInt32: MirrorItem]>([:])

    init(coordinator: MirrorCoordinator) {
        self.coordinator = coordinator
    }

    func apply(seq: UInt64, event: Relay_V1_WearableEvent) throws {
        try centre.withLock { held in
            guard try !coordinator.isApplied(seq: seq) else { return }
            var changes: [MirrorCoordinator.CentreChange] = []
            switch event.kind {
            case .response(let response):
                if let id = coordinator.centreID(ofKey: response.notificationKey) {
                    changes.append(.removed(centreID: id, reason: .acted))
                    held[id] = nil
                }
                try coordinator.record(changes, locked: true, applying: seq).waitBlocking()
                responses.append([response])
            case .alerted(let alerted):
                try coordinator.record([], locked: true, applying: seq).waitBlocking()
                self.alerted.append([alerted])
            case .firedLocally(let fired):
                // Recorded as the phone's centre does; this owner's phone fired every occurrence itself.
                let change = MirrorCoordinator.CentreChange.firedOnWearable(
                    scheduleKey: fired.scheduleKey, fireDate: fired.fireDate, alerted: fired.alerted, withdraw: false)
                try coordinator.record([change], locked: true, applying: seq).waitBlocking()
            default:
                try coordinator.record([], locked: true, applying: seq).waitBlocking()
            }
        }
    }

    /// A snapshot of what this centre holds, as relay-phone's centre sends one (a new partner
    /// gets none: nothing counts as mirrored to it yet).
    func startNewEpoch(newPartner: Bool) throws {
        try centre.withLock { held in
            let items = newPartner ? [] : held.values.sorted { $0.centreID < $1.centreID }
            try coordinator.startNewEpoch(items: items, newPartner: newPartner).waitBlocking()
        }
    }

    /// What relay-phone does at start-up after a power cut may have lost commits: a new epoch
    /// with a snapshot of what the centre still holds (`items`), keys moved far on.
    func recoverFromLostWrites(keeping items: [MirrorItem]) throws {
        try centre.withLock { held in
            held = Dictionary(items.map { ($0.centreID, $0) }, uniquingKeysWith: { _, last in last })
            try coordinator.startNewEpoch(items: items, newPartner: false, skippingKeys: true).waitBlocking()
        }
    }

    /// The item `post` hands the mirror.
    static func item(_ id: UInt32, title: String, level: InterruptionLevel = .active, attachments: [NotificationAttachment] = []) -> MirrorItem {
        MirrorItem(
            centreID: id, appName: "Mail",
            content: NotificationContent(title: title, body: "Body \(id)", attachments: attachments, interruptionLevel: level),
            category: nil, deliveredAt: Date())
    }

    /// Schedules a request as the centre would.
    func schedule(_ item: ScheduleItem) throws {
        try centre.withLock { _ in try coordinator.record([.scheduled(item)], locked: true).waitBlocking() }
    }

    /// Removes a notification as the centre would.
    func remove(_ id: UInt32) throws {
        try centre.withLock { held in
            held[id] = nil
            try coordinator.record([.removed(centreID: id, reason: .withdrawn)], locked: true).waitBlocking()
        }
    }

    /// Removes a scheduled request as the centre would.
    func unschedule(appName: String, identifier: String) throws {
        try centre.withLock { _ in
            try coordinator.record([.unscheduled(appName: appName, identifier: identifier)], locked: true).waitBlocking()
        }
    }

    /// Delivers an occurrence of a scheduled request as the centre's scheduler would: the
    /// request's one notification (`id`), updated in place from the second occurrence on.
    func fire(_ id: UInt32, identifier: String, title: String, fireDate: Date, first: Bool) throws {
        let item = MirrorItem(
            centreID: id, appName: "Mail", content: NotificationContent(title: title), category: nil, deliveredAt: fireDate,
            occurrence: OccurrenceOrigin(identifier: identifier, occurrence: ScheduledOccurrence(fireDate: fireDate)))
        try centre.withLock { held in
            held[id] = item
            try coordinator.record([.posted(item, replaced: !first, record: Data(title.utf8))], locked: true).waitBlocking()
        }
    }

    /// Posts a notification as the centre would.
    func post(
        _ id: UInt32, title: String, level: InterruptionLevel = .active, locked: Bool = true, replaced: Bool = false,
        attachments: [NotificationAttachment] = []
    ) throws {
        let item = Self.item(id, title: title, level: level, attachments: attachments)
        try centre.withLock { held in
            held[id] = item
            try coordinator.record([.posted(item, replaced: replaced, record: Data(title.utf8))], locked: locked).waitBlocking()
        }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
