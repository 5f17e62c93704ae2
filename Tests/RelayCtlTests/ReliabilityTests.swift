import Foundation
import RelayDisplay
import RelayCore
import RelayDBus
import RelayTestSupport
import RelayTransport
import Synchronization
import Testing

/// Issue #6's reliability test, with the real agents: a stream of 500 operations (new
/// notifications, some with pictures, updates in place, removals, responses from the wearable)
/// while the phone drops the link at random and the link simulator takes the devices out of
/// range now and then, and with `kill -9` of the wearable and later of the phone in the
/// middle. Afterwards every notification is on the wearable exactly once at its latest
/// revision, nothing removed is shown, every response reached its app exactly once (the app's
/// D-Bus signals, counted), and no alert was repeated (counted across the wearable's lives).
/// Do not disturb (on the phone) and a mute (from the wearable) come and go, and a filter rule
/// keeps every title ending in 7 silent: no notification alerted (in the wearable's last life)
/// without a recorded decision (`relayctl why`) that it alerts, none the rule keeps silent, and
/// every one decided to alert did buzz (but what the wearable's kill caught between the two).
///
/// The seed is printed with every failure; `RELAY_SOAK_SEED=N` replays a run.
@Suite struct ReliabilityTests {
    @Test(.timeLimit(.minutes(5))) func fiveHundredOperationsThroughDropsAndCrashes() async throws {
        let seed = ProcessInfo.processInfo.environment["RELAY_SOAK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        try await withPrivateBus { bus in
            let rig = try await Rig.make(bus: bus)
            do {
                try await Soak(rig: rig, seed: seed).run()
            } catch {
                await rig.stopAll()
                throw SoakFailure("seed \(seed) (replay with RELAY_SOAK_SEED=\(seed)): \(error)")
            }
            // A clean stop of what is still running: SIGTERM, exit 0, sockets removed.
            let shutdown = await rig.stopAll()
            for agent in shutdown.stopped {
                #expect(agent.status == 0, "seed \(seed): \(agent.name) exited with \(agent.status) on SIGTERM")
            }
            #expect(shutdown.stopped.count == 2 && shutdown.socketsLeft.isEmpty, "seed \(seed): sockets left: \(shutdown.socketsLeft)")
        }
    }
}

/// One run: the operations, the model of what must hold afterwards, and the checks.
private struct Soak {
    let rig: Rig
    let seed: UInt64
    /// `RELAY_SOAK_OPERATIONS` makes a longer run (`make chaos`).
    static let operations = ProcessInfo.processInfo.environment["RELAY_SOAK_OPERATIONS"].flatMap { Int($0) }.map { max($0, 100) } ?? 500
    /// Notifications posted at once just before each kill.
    static let burst = 25

    /// A notification as the test posted it.
    struct Posted {
        enum Kind: CaseIterable { case buttons, reply, plain }
        var id: UInt32
        var title: String
        var revision: Int
        var kind: Kind
        /// The `image-path` hint, on some: one of a few pictures shared between notifications.
        var image: String?
        var body: String { "\(title) revision \(revision)" }
        var actions: [String] {
            switch kind {
            case .buttons: ["yes", "Yes", "no", "No"]
            case .reply: ["inline-reply", "Reply"]
            case .plain: []
            }
        }
    }

    /// A signal as the app hears it: member, notification id, and the action, text or reason.
    struct Heard: Hashable, CustomStringConvertible {
        var member: String
        var id: UInt32
        var detail: String
        var description: String { "\(member)(\(id), \(detail))" }
    }

    func run() async throws {
        var random = SplitMix64(state: seed)
        let client = try await rig.bus.connect()
        let heard = EventLog<Heard>()
        let stream = try await client.signals(matching: .signal(interface: Notifications.interface))
        let recorder = Task {
            for await message in stream { heard.append([Self.heard(message)]) }
        }
        defer { recorder.cancel() }

        // A few pictures that new notifications carry now and then: the phone takes each in, the
        // wearable fetches each once however many notifications show it.
        let pictures = try (0..<3).map { index -> String in
            let path = rig.directory + "/picture-\(index).png"
            let colour: [UInt8] = [[200, 60, 40], [40, 160, 90], [50, 70, 210]][index]
            guard let image = RGBImage(width: 48 + index * 16, height: 32, bytes: Array((0..<((48 + index * 16) * 32)).map { _ in colour }.joined()))
            else { throw SoakFailure("bad picture size") }
            try PNGFile.write(image, to: path)
            return path
        }
        func picture() -> String? {
            let roll = Int.random(in: 0..<10, using: &random)
            return roll < pictures.count ? pictures[roll] : nil
        }

        // The phone reaches the wearable through the link simulator (fast, so the run stays short),
        // whose outage switch takes the devices out of range now and then.
        let outage = OutageSwitch()
        let simulatorSocket = rig.directory + "/sim.sock"
        let listening = Gate()
        let simulator = Task {
            try await LinkSimulator(
                conditions: LinkConditions(latency: .milliseconds(1), bytesPerSecond: 20_000_000, mtu: 65_536),
                upstream: .unix(path: rig.linkSocket), outage: outage
            ).run(on: .unix(path: simulatorSocket)) { _ in listening.open() }
        }
        defer { simulator.cancel() }
        await listening.wait()

        // A filter rule the phone reads at start: titles ending in 7 arrive silently.
        try FileManager.default.createDirectory(atPath: rig.directory + "/config/relay", withIntermediateDirectories: true)
        try "[rule.sevens]\ntitle = \"7$\"\naction = \"silent\"\n".write(toFile: rig.directory + "/config/relay/filters.toml", atomically: true, encoding: .utf8)

        try await rig.startWearable()
        try await rig.startPhone(peer: simulatorSocket)
        try await rig.pair()
        try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
        // Do not disturb on the phone, or a mute of the app from the wrist, on for a few steps
        // now and then (brief, so that most notifications may still alert).
        var doNotDisturb = false
        var muted = false
        var silencedUntil: Int?
        /// Turns the mute on or off from the wrist and waits until the phone has it too: until
        /// then the phone would keep its old idea of the mute, and the model would be wrong.
        func mute(_ on: Bool) async throws {
            try await rig.ctl(["mutes", on ? "add" : "remove", "soak", "--wearable", "--control-socket", rig.wearableSocket])
            try await rig.until("the phone has the mute's change") {
                try await rig.ctl(["mutes", "--control-socket", rig.phoneSocket]).hasPrefix("soak") == on
            }
            muted = on
        }

        var live: [String: Posted] = [:]
        var order: [String] = []  // live titles, in a stable order for the generator
        var gone: Set<String> = []
        var expected: [Heard: Int] = [:]
        var counter = 0
        var counts = (new: 0, updates: 0, removals: 0, responses: 0, drops: 0, outages: 0, postedApart: 0, silencings: 0)
        // While the devices are apart, until this step: the wearable shows nothing new, so nothing
        // is answered on it (what it shows could be, but the generator does not know which).
        var apartUntil: Int?
        // The same places in a longer run (`make chaos`): about a third and three quarters in.
        let scale = Double(Self.operations) / 500
        let killWearableAt = Int.random(in: Int(120 * scale)...Int(200 * scale), using: &random)
        let restartWearableAt = killWearableAt + Int.random(in: 15...40, using: &random)
        let killPhoneAt = Int.random(in: Int(300 * scale)...Int(380 * scale), using: &random)
        var wearableUp = true
        // From the burst before the wearable's kill to the kill: what it decided then may not have buzzed.
        var killedWearableDuring: DateInterval?

        func pick() -> String? { order.isEmpty ? nil : order[Int.random(in: 0..<order.count, using: &random)] }
        func forget(_ title: String) {
            live[title] = nil
            order.removeAll { $0 == title }
            gone.insert(title)
        }
        /// Answers a notification on the wearable, through its control socket, as its buttons do;
        /// with `afterDrop`, right after the phone dropped the link, while the next session starts.
        func respond(to title: String, afterDrop: Bool = false) async throws {
            guard let posted = live[title] else { return }
            let key = try await rig.waitUntilShown(title)
            if afterDrop {
                try await rig.ctl(["reconnect", "--control-socket", rig.phoneSocket])
                counts.drops += 1
            }
            let choice = Int.random(in: 0..<3, using: &random)
            switch (posted.kind, choice) {
            case (.buttons, 0), (.buttons, 1):
                let action = choice == 0 ? "yes" : "no"
                try await rig.ctl(["respond", String(key), action, "--control-socket", rig.wearableSocket])
                expected[Heard(member: "ActionInvoked", id: posted.id, detail: action), default: 0] += 1
            case (.reply, 0), (.reply, 1):
                let text = "on my way (\(title))"
                try await rig.ctl(["respond", String(key), "inline-reply", "--text", text, "--control-socket", rig.wearableSocket])
                expected[Heard(member: "NotificationReplied", id: posted.id, detail: text), default: 0] += 1
            default:
                try await rig.ctl(["respond", String(key), "dismiss", "--control-socket", rig.wearableSocket])
            }
            // Not resident: whatever the answer, the notification closes as dismissed by the user.
            expected[Heard(member: "NotificationClosed", id: posted.id, detail: "2"), default: 0] += 1
            forget(title)
            counts.responses += 1
        }

        /// New notifications posted at once, so that the link is busy when a kill comes.
        func burst() async throws {
            let titles = (1...Self.burst).map { "n\(counter + $0)" }
            counter += Self.burst
            let kinds = titles.map { _ in (Posted.Kind.allCases[Int.random(in: 0..<3, using: &random)], picture()) }
            let posted = try await withThrowingTaskGroup(of: Posted.self) { group in
                for (title, (kind, image)) in zip(titles, kinds) {
                    group.addTask {
                        var posted = Posted(id: 0, title: title, revision: 1, kind: kind, image: image)
                        posted.id = try await Notifications.notify(client, posted, replacing: 0)
                        return posted
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // In the order of the titles, not of the replies, so that a seed picks the same ones again.
            let byTitle = Dictionary(uniqueKeysWithValues: posted.map { ($0.title, $0) })
            for title in titles {
                live[title] = byTitle[title]
                order.append(title)
            }
            counts.new += Self.burst
            // Posted as an agent is killed: some arrive only with the catch-up after its restart.
            counts.postedApart += Self.burst
        }
        var backlog: [String] = []

        for step in 0..<Self.operations {
            if let until = apartUntil, step >= until || [killWearableAt, restartWearableAt, killPhoneAt].contains(step) {
                outage.end()
                apartUntil = nil
                // Back in range: the phone tries now rather than after its backoff.
                try await rig.ctl(["reconnect", "--control-socket", rig.phoneSocket])
            }
            if step == killWearableAt {
                let burstStarted = Date()
                try await burst()
                await rig.killWearable()
                killedWearableDuring = DateInterval(start: burstStarted, end: Date())
                backlog.append("\(try await rig.phoneStatus()["unacknowledged"] as? Int ?? -1) changes unacknowledged by the killed wearable")
                wearableUp = false
                continue
            }
            if step == restartWearableAt {
                try await rig.startWearable()
                wearableUp = true
                // The wearable is back in range: the phone tries now rather than after its backoff.
                try await rig.ctl(["reconnect", "--control-socket", rig.phoneSocket])
                continue
            }
            if step == killPhoneAt {
                // Answers on their way and a burst of new notifications as the phone dies.
                for _ in 0..<2 {
                    if let title = pick() { try await respond(to: title) }
                }
                try await burst()
                try await rig.killPhone()
                backlog.append("\(try await rig.wearableStatus()["queued"] as? Int ?? -1) events unacknowledged by the killed phone")
                // Answers given while the phone is gone wait in the wearable's outbox; only what
                // reached the wearable before the phone died can be answered now.
                let shown = Set(try await rig.wearableNotifications().map(\.title))
                for title in order.filter(shown.contains).prefix(2) { try await respond(to: title) }
                try await rig.startPhone(peer: simulatorSocket)
                // The manual lock is not kept across a restart; lock before anything new arrives.
                try await rig.ctl(["lock", "--control-socket", rig.phoneSocket])
                continue
            }
            if let until = silencedUntil, step >= until {
                if doNotDisturb {
                    try await rig.ctl(["dnd", "off", "--control-socket", rig.phoneSocket])
                    doNotDisturb = false
                    silencedUntil = nil
                } else if apartUntil == nil, wearableUp {
                    try await mute(false)
                    silencedUntil = nil
                }
            }
            let roll = Int.random(in: 0..<100, using: &random)
            if roll >= 97, roll < 99, silencedUntil == nil, apartUntil == nil, wearableUp {
                if roll == 98 {
                    try await rig.ctl(["dnd", "on", "--control-socket", rig.phoneSocket])
                    doNotDisturb = true
                } else {
                    try await mute(true)
                }
                silencedUntil = step + Int.random(in: 3...10, using: &random)
                counts.silencings += 1
                continue
            }
            if roll == 99, apartUntil == nil, wearableUp {
                // Out of range for a while: the phone's changes wait in its log.
                outage.begin()
                apartUntil = step + Int.random(in: 5...25, using: &random)
                counts.outages += 1
                continue
            }
            let together = apartUntil == nil
            if roll < 9, wearableUp, together, roll >= 5, let title = pick() {
                try await respond(to: title, afterDrop: true)
            } else if roll < 9 {
                try await rig.ctl(["reconnect", "--control-socket", rig.phoneSocket])
                counts.drops += 1
            } else if roll < 13, wearableUp, together, let title = pick() {
                try await respond(to: title)
            } else if roll < 27, let title = pick(), let posted = live[title] {
                _ = try await client.call(
                    destination: Notifications.interface, path: Notifications.path, interface: Notifications.interface,
                    method: "CloseNotification", arguments: [.uint32(posted.id)])
                expected[Heard(member: "NotificationClosed", id: posted.id, detail: "3"), default: 0] += 1
                forget(title)
                counts.removals += 1
            } else if roll < 55, let title = pick(), var posted = live[title] {
                posted.revision += 1
                let id = try await Notifications.notify(client, posted, replacing: posted.id)
                if id != posted.id { throw SoakFailure("an update of \(title) (id \(posted.id)) came back as id \(id)") }
                live[title] = posted
                counts.updates += 1
            } else {
                counter += 1
                let kind = Posted.Kind.allCases[Int.random(in: 0..<3, using: &random)]
                var posted = Posted(id: 0, title: "n\(counter)", revision: 1, kind: kind, image: picture())
                posted.id = try await Notifications.notify(client, posted, replacing: 0)
                live[posted.title] = posted
                order.append(posted.title)
                counts.new += 1
                // Posted while apart: it arrives with the catch-up, which does not alert; nor does
                // what do not disturb, the mute or the rule keeps silent.
                if apartUntil != nil || !wearableUp || doNotDisturb || muted || posted.title.hasSuffix("7") { counts.postedApart += 1 }
            }
        }
        if !wearableUp { try await rig.startWearable() }
        if apartUntil != nil {
            outage.end()
            try await rig.ctl(["reconnect", "--control-socket", rig.phoneSocket])
        }

        let converging = ContinuousClock.now
        try await rig.waitForConvergence()
        print("relay soak: seed \(seed): \(counts.new) new, \(counts.updates) updates, \(counts.removals) removals, \(counts.responses) responses, \(counts.drops) drops, \(counts.outages) outages, \(counts.silencings) changes of do not disturb or the mute, wearable killed at \(killWearableAt), phone at \(killPhoneAt) (\(backlog.joined(separator: ", "))); converged in \(ContinuousClock.now - converging)")
        var tally = Tally()
        try await checkWearable(live: live, gone: gone, counts: counts, tally: &tally)
        try await checkDecisions(killedWearableDuring: killedWearableDuring, tally: &tally)
        try await checkPhone(live: live)
        try await checkImages(live: live, tally: &tally)
        try await checkSignals(client: client, heard: heard, expected: expected, tally: &tally)
        // One line for `make chaos`'s checker: every figure must be 0.
        print("relay soak result: seed \(seed): \(tally)")
    }

    /// What went wrong, counted, for `make chaos`.
    struct Tally: CustomStringConvertible {
        var lost = 0, duplicated = 0, stale = 0, shownAfterRemoval = 0, repeatedAlerts = 0
        var undeliveredResponses = 0, repeatedResponses = 0, missingImages = 0, againstDecision = 0

        var description: String {
            "lost \(lost), duplicated \(duplicated), stale \(stale), shown after removal \(shownAfterRemoval), "
                + "repeated alerts \(repeatedAlerts), undelivered responses \(undeliveredResponses), repeated responses \(repeatedResponses), "
                + "missing images \(missingImages), alerts against their decision \(againstDecision)"
        }
    }

    // MARK: Checks

    /// Every live notification exactly once at its latest revision; nothing removed; no alert twice.
    private func checkWearable(
        live: [String: Posted], gone: Set<String>,
        counts: (new: Int, updates: Int, removals: Int, responses: Int, drops: Int, outages: Int, postedApart: Int, silencings: Int),
        tally: inout Tally
    ) async throws {
        let shown = try await rig.wearableNotifications()
        let context = "seed \(seed), \(counts.new) new, \(counts.updates) updates, \(counts.removals) removals, \(counts.responses) responses, \(counts.drops) drops"
        var byTitle: [String: [Rig.Shown]] = [:]
        for entry in shown { byTitle[entry.title, default: []].append(entry) }
        for (title, posted) in live.sorted(by: { $0.key < $1.key }) {
            let entries = byTitle[title] ?? []
            if entries.isEmpty { tally.lost += 1 }
            if entries.count > 1 { tally.duplicated += 1 }
            if !entries.allSatisfy({ $0.body == posted.body }) { tally.stale += 1 }
            #expect(entries.count == 1, "\(context): \(title) is on the wearable \(entries.count) times")
            #expect(entries.allSatisfy { $0.body == posted.body }, "\(context): \(title) shows \(entries.map(\.body)), not \(posted.body)")
        }
        let stray = shown.filter { live[$0.title] == nil }
        tally.shownAfterRemoval = stray.count
        #expect(stray.isEmpty, "\(context): the wearable shows what is gone: \(stray.map(\.title).sorted()) (removed or answered: \(stray.filter { gone.contains($0.title) }.count))")
        #expect(shown.allSatisfy { $0.alerts <= 1 }, "\(context): alerted more than once since the last start: \(shown.filter { $0.alerts > 1 })")

        // Across every life of the wearable: its log says which notification alerted.
        let alerts = rig.alertsByIdentifier()
        let repeated = alerts.filter { $0.value > 1 }
        tally.repeatedAlerts = repeated.count
        #expect(repeated.isEmpty, "\(context): alerts repeated for notification keys \(repeated.sorted { $0.key < $1.key })")
        // A notification sent again under a new key would alert under that key: count them all.
        let total = alerts.values.reduce(0, +)
        #expect(total <= counts.new, "\(context): \(total) alerts for \(counts.new) notifications")
        // Everything was posted while the phone was locked, so alerts did happen (not for what
        // waited on the phone while the devices were apart: the catch-up does not alert).
        #expect(
            alerts.count > (counts.new - counts.postedApart) / 2,
            "\(context): only \(alerts.count) notifications alerted, \(counts.postedApart) posted while apart")
        #expect(counts.responses > 0 && counts.drops > 0 && counts.removals > 0 && counts.updates > 0, "\(context)")
        // Drops and kills end links; nothing else may: a violation is a bug that resending hid.
        let failures = rig.linkFailures()
        #expect(failures.isEmpty, "\(context): links failed: \(failures.prefix(5))")
    }

    /// Each notification on the wearable alerted (in this life of the wearable) only if a recorded
    /// decision says it alerted, and a title ending in 7 (the rule's) never did; and the other
    /// way: one whose decision says it alerted did buzz (in some life: its log line), unless it
    /// was decided while the burst before the wearable's kill -9 was arriving (stored, then
    /// killed before it was drawn: shown after the restart, its buzz lost).
    private func checkDecisions(killedWearableDuring: DateInterval?, tally: inout Tally) async throws {
        let buzzed = rig.alertsByIdentifier()
        // Decisions are stamped in whole seconds.
        let excused = killedWearableDuring.map { DateInterval(start: $0.start.addingTimeInterval(-1), end: $0.end.addingTimeInterval(1)) }
        var decidedButNeverBuzzed: [String] = []
        for shown in try await rig.wearableNotifications() {
            let decisions = try await rig.ctl(["why", String(shown.id), "--control-socket", rig.wearableSocket]).split(separator: "\n")
            let alerted = decisions.filter { $0.contains(" alerted: ") }
            let against = (shown.alerts > 0 && alerted.isEmpty) || (shown.title.hasSuffix("7") && shown.alerts > 0)
            if against { tally.againstDecision += 1 }
            #expect(!against, "seed \(seed): \(shown.title) alerted \(shown.alerts) times against its decisions \(decisions)")
            let decidedAt = alerted.compactMap { line in line.split(separator: " ").first.flatMap { try? Date(String($0), strategy: .iso8601) } }
            let duringTheKill = decidedAt.count == alerted.count && decidedAt.allSatisfy { excused?.contains($0) == true }
            if !alerted.isEmpty, buzzed[String(shown.id)] == nil, !duringTheKill {
                decidedButNeverBuzzed.append("\(shown.title) (#\(shown.id): \(decisions.joined(separator: " | ")))")
            }
        }
        #expect(
            decidedButNeverBuzzed.isEmpty,
            "seed \(seed): decided to alert but never buzzed (the wearable was killed during \(String(describing: killedWearableDuring))): \(decidedButNeverBuzzed)")
    }

    /// Every picture a live notification carries is on the wearable, whole, and nothing else is.
    private func checkImages(live: [String: Posted], tally: inout Tally) async throws {
        let wanted = Set(live.values.compactMap(\.image)).count
        try await rig.until("the wearable has every picture", timeout: .seconds(30)) {
            try await rig.wearableStatus()["attachmentsWaiting"] as? Int == 0
        }
        let status = try await rig.wearableStatus()
        let stored = status["attachments"] as? Int ?? -1
        tally.missingImages = max(0, wanted - stored)
        #expect(stored == wanted, "seed \(seed): \(stored) pictures on the wearable for \(wanted) in live notifications")
        let files = try FileManager.default.contentsOfDirectory(atPath: rig.directory + "/wearable-state/attachments")
        #expect(files.count == wanted, "seed \(seed): the wearable keeps \(files.sorted()) for \(wanted) pictures in use")
    }

    /// The phone's centre (restored after its crash) holds exactly the live notifications.
    private func checkPhone(live: [String: Posted]) async throws {
        let delivered = try await rig.phoneDelivered()
        let expected = Set(live.values.map { "\($0.id) \($0.title) \($0.body)" })
        #expect(Set(delivered) == expected && delivered.count == expected.count, "seed \(seed): the phone's centre differs from what the app left: extra \(Set(delivered).subtracting(expected).sorted()), missing \(expected.subtracting(delivered).sorted())")
    }

    /// Each response reached its app exactly once, and every close was signalled once.
    private func checkSignals(
        client: DBusConnection, heard: EventLog<Heard>, expected: [Heard: Int], tally: inout Tally
    ) async throws {
        // A barrier: the phone's reply follows every signal it sent before it, and our own marker
        // signal, sent after that reply, comes back after them all.
        _ = try await client.call(
            destination: Notifications.interface, path: Notifications.path, interface: Notifications.interface,
            method: "GetServerInformation")
        let marker = Heard(member: "NotificationClosed", id: 0, detail: "0")
        try client.emitSignal(
            path: "/org/relay/Soak", interface: Notifications.interface, name: marker.member, arguments: [.uint32(0), .uint32(0)])
        guard await heard.wait(timeout: .seconds(10), until: { $0.contains(marker) }) else {
            throw SoakFailure("the test's own marker signal did not come back")
        }
        var counted: [Heard: Int] = [:]
        for signal in heard.elements where signal != marker { counted[signal, default: 0] += 1 }
        let missing = expected.filter { counted[$0.key, default: 0] < $0.value }.keys.map(\.description).sorted()
        let extra = counted.filter { $0.value > expected[$0.key, default: 0] }.map { "\($0.key) ×\($0.value)" }.sorted()
        tally.undeliveredResponses = missing.count
        tally.repeatedResponses = extra.count
        #expect(missing.isEmpty && extra.isEmpty, "seed \(seed): signals missing \(missing), extra or repeated \(extra)")
    }

    private static func heard(_ message: DBusMessage) -> Heard {
        let id = (try? message.arguments.decode(0, as: UInt32.self)) ?? 0
        let detail =
            message.member == "NotificationClosed"
            ? ((try? message.arguments.decode(1, as: UInt32.self)).map(String.init) ?? "?")
            : ((try? message.arguments.decode(1, as: String.self)) ?? "?")
        return Heard(member: message.member ?? "?", id: id, detail: detail)
    }
}

/// The freedesktop interface as the test's app uses it.
private enum Notifications {
    static let interface = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    static func notify(_ client: DBusConnection, _ posted: Soak.Posted, replacing id: UInt32) async throws -> UInt32 {
        let reply = try await client.call(
            destination: interface, path: path, interface: interface, method: "Notify",
            arguments: [
                .string("soak"), .uint32(id), .string(""), .string(posted.title), .string(posted.body), .array(posted.actions),
                .dictionary(
                    keySignature: .string, valueSignature: .variant,
                    entries: posted.image.map { [DBusDictionaryEntry(key: .string("image-path"), value: .variant(.string($0)))] } ?? []),
                .int32(0),
            ])
        return try reply.decode(0, as: UInt32.self)
    }
}
