import Foundation
import Glibc
import RelayCLI
import RelayControl
import RelayCore
import RelayDisplay
import RelayInput
import RelayStore
import RelaySystem
import RelayLinkRuntime
import RelayTransport
import RelayWire
import Synchronization
import RelayText
import WearableAgent
import WearableUI

/// The runtime: one thread that owns the screen, polling the control socket, the keys, the stop
/// request (SIGINT, SIGTERM: `AgentServices`) and the clock. The phone reaches the link on a Unix socket (loopback) or through
/// BlueZ (rfcomm, ``WearableBluetooth``).
///
/// Everything that touches the framebuffer or the state machine happens here, on one thread,
/// which is why neither needs to be `Sendable`.
final class WearableRuntime {
    private let configuration: WearableConfiguration
    private let stop: StopRequest
    private let listener: ControlListener
    private let framebuffer: Framebuffer
    private let display: WearableDisplay
    private let input: EvdevReader?
    private let haptics: HapticPlayer
    private(set) var machine: UIStateMachine
    /// The wall clock, corrected by the phone's: the screens and local firing read it.
    private let clock: PhoneFollowingClock
    private let started = ContinuousClock.now
    /// UI events from the link's tasks, drained on this thread.
    private let mailbox: Mailbox<[UIEvent]>
    let link: WearableLink
    private let linkEndpoint: String
    /// Set with the rfcomm transport: the phone connects through BlueZ, not the link socket.
    private let bluetooth: WearableBluetooth?
    /// BlueZ's bonding passkey while it waits on the pairing screen.
    private let bonding: BondingPrompt
    private var serving: Task<Void, any Error>?
    private var alerts = 0
    /// When lost key devices were last looked for.
    private var lastDeviceSearch = ContinuousClock.now
    /// Alerts per notification held, since start (`notifications`, WearableRuntime+Replica.swift).
    var alertCounts: [String: Int] = [:]
    /// Lines about a change, written once its frame is shown: on the way to the screen they
    /// would put a write (and its reader's wake-up) before every notification's pixels.
    var linesAfterFrame: [String] = []
    /// Benchmarks only: when each notification reached the screen (`RELAY_PRESENT_TRACE`).
    private let trace = PresentTrace(environment: ProcessInfo.processInfo.environment)

    init(configuration: WearableConfiguration, bluetooth: WearableBluetooth?, stop: StopRequest) throws {
        self.configuration = configuration
        self.bluetooth = bluetooth
        self.stop = stop
        framebuffer = try Self.openFramebuffer(configuration)
        let geometry = framebuffer.geometry
        let layout = ScreenLayout(geometry: geometry, typesetter: Typesetter(typeface: try Typeface(.installed(colorEmoji: configuration.colorEmoji))))
        // Pictures come from the attachments the link stores (WearableLink+Attachments.swift).
        try configuration.stateDirectory.prepare()
        let attachments = try AttachmentStore(in: configuration.stateDirectory)
        let images = PNGAttachmentSource(maxPixels: Self.maxImagePixels) { url in
            AttachmentDigest(url: url).map(attachments.path(of:))
        }
        display = WearableDisplay(framebuffer: framebuffer, renderer: ScreenRenderer(layout: layout, images: images))
        let clock = PhoneFollowingClock(setSystemClock: configuration.setSystemClock ? Self.setSystemClock : nil)
        self.clock = clock
        machine = UIStateMachine(
            state: UIState(now: clock.now(), link: .outOfRange),
            configuration: Self.screenSettings(configuration.interface, framebuffer: framebuffer), measurer: layout)
        let keyDevices = configuration.findsKeypads ? Self.keypads(for: configuration.keyMap) : configuration.inputs
        input = keyDevices.isEmpty ? nil : try EvdevReader(devices: keyDevices, keyMap: configuration.keyMap)
        haptics = try HapticPlayer(device: configuration.vibrator, log: .standardError)
        let mailbox = try Mailbox<[UIEvent]>()
        self.mailbox = mailbox
        bonding = BondingPrompt(present: { mailbox.submit($0) })
        var linkConfiguration = WearableLink.Configuration(
            deviceName: configuration.deviceName,
            capabilities: Self.capabilities(of: geometry),
            heartbeat: configuration.heartbeat, timeout: configuration.timeout,
            offlineAlertWindow: configuration.offlineAlertWindow, clock: clock,
            // Over Bluetooth the kernel reports a lost link; an idle session need not ping often.
            idleHeartbeat: bluetooth == nil ? nil : LinkTimeouts.supervisedIdleHeartbeat.wearable)
        linkConfiguration.alertPolicy = configuration.alertPolicy
        linkConfiguration.sharesDoNotDisturb = configuration.sharesDoNotDisturb
        link = try WearableLink(
            directory: configuration.stateDirectory,
            configuration: linkConfiguration,
            logger: AgentLog.logger(label: "relay-wearable"),
            present: { mailbox.submit($0) })
        linkEndpoint = configuration.linkSocket
        // Last: the socket appears only once every request can be served.
        listener = try ControlListener.open(path: configuration.controlSocket, access: configuration.controlAccess)
    }

    /// The screens' settings for this framebuffer: a panel is powered up now (an earlier run,
    /// or the console, may have left it blanked) and blanks when idle; a file has nothing to
    /// blank, nor has a panel whose driver does not implement blanking (said once here).
    private static func screenSettings(_ settings: UIConfiguration, framebuffer: Framebuffer) -> UIConfiguration {
        var settings = settings
        guard framebuffer.isPanel else {
            settings.blankAfter = nil
            return settings
        }
        do {
            try framebuffer.setPanelAwake(true)
        } catch {
            AgentLogSink.standardError.warning(
                "relay-wearable: the panel's driver (\(framebuffer.driverName)) does not blank it (\(error)); it stays on, "
                    + "and display.blank_after_seconds has no effect")
            settings.blankAfter = nil
        }
        return settings
    }

    /// Sets the system clock (`clock.set_system_clock`), which needs `CAP_SYS_TIME`.
    @Sendable private static func setSystemClock(_ date: Date) throws {
        try SystemClockSetting.set(secondsSince1970: date.timeIntervalSince1970)
    }

    /// With no key device named, a board's: every device that reports keys of the map and is not
    /// a keyboard (gpio-keys buttons, an ADC keypad). Said in the log, found or not.
    private static func keypads(for keyMap: KeyMap) -> [InputDeviceLocator] {
        let found = InputDevices().keypads(for: keyMap)
        if found.isEmpty {
            AgentLogSink.standardError.warning(
                "relay-wearable: no input device reports the keys of [keys] (cat /proc/bus/input/devices): nothing can be pressed; "
                    + "load the buttons' overlay (Hardware/README.md) or name the device in inputs or input_names")
        } else {
            AgentLogSink.standardError("relay-wearable: keys from " + found.map { "\"\($0.name)\" (\($0.path))" }.joined(separator: ", "))
        }
        // By name, not by node: a keypad that goes away leaves its eventN to whatever comes next,
        // a keyboard perhaps, which the wearable must not grab.
        var names: [String] = []
        for device in found where !names.contains(device.name) { names.append(device.name) }
        if names.count < found.count {
            AgentLogSink.standardError.warning(
                "relay-wearable: several key devices share a name; only the first of each name is read: name the others in inputs by path")
        }
        return names.map { .name($0) }
    }

    /// A character device is a real panel; anything else outside /dev is a file with the given
    /// geometry (`Framebuffer.open`).
    private static func openFramebuffer(_ configuration: WearableConfiguration) throws -> Framebuffer {
        if configuration.framebuffer.hasPrefix(configuration.runtimeDirectory + "/") {
            // The default file lives in the private runtime directory; make sure it exists.
            try ControlDirectory.prepare(configuration.runtimeDirectory, ownerUID: geteuid())
        }
        return try Framebuffer.open(path: configuration.framebuffer, fileGeometry: configuration.geometry)
    }

    /// Serves until the stop request (SIGINT or SIGTERM), then removes the socket.
    func run() throws {
        defer { listener.close() }
        // Whatever comes after relay-wearable (the console, its next start) finds the panel on.
        defer { if !machine.state.panelAwake { try? framebuffer.setPanelAwake(true) } }
        defer { haptics.stop() }
        _ = machine.handle(link.initialEvents + [.tick(now: clock.now(), uptime: ContinuousClock.now - started)])
        display.show(machine.screenModel)
        let listening = try startLink()
        defer {
            serving?.cancel()
            if bluetooth == nil { unlink(linkEndpoint) }
        }
        // Written unbuffered: whoever started the agent waits for this line before sending requests.
        let ready =
            "ready: control socket \(listener.path), \(listening), framebuffer \(framebuffer.path) (\(framebuffer.geometry))\n"
        FileHandle.standardOutput.write(Data(ready.utf8))
        let serviceManager = ServiceManager(agent: "relay-wearable", log: log)
        serviceManager.ready("serving the control socket at \(listener.path)")
        defer { serviceManager.stopping() }
        // Start-up is over: its code need not stay resident (StartupPages.swift).
        StartupPages.release()
        while true {
            // A device that went away is no longer polled (it would be readable for ever); it is
            // looked for again each second below.
            let keys = input?.descriptors ?? []
            let descriptors = [stop.descriptor, listener.descriptor, mailbox.wakeDescriptor] + keys
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let timeout = pollTimeout()
            try SystemError.retrying("poll") { poll(&polled, nfds_t(polled.count), timeout) }
            if polled[0].revents != 0 {
                log("relay-wearable: stopping on signal")
                return
            }
            // The time first: what follows (a key, the link's events) happens now, not at the
            // previous tick. At its deadlines at least, the state machine decides whether the face
            // changed (each minute), the short look ended and the panel has been idle long enough
            // to blank.
            apply(.tick(now: clock.now(), uptime: ContinuousClock.now - started))
            if polled[1].revents != 0, let outcome = listener.serveOne(timeoutMilliseconds: 0, answer) {
                log(outcome.description, level: outcome.logLevel)
            }
            if polled[2].revents != 0 {
                mailbox.acknowledgeWakeUp()
                // A burst arrives as many events; the screen is drawn once for all of them.
                let batch = Array(mailbox.take().joined())
                if handle(batch) {
                    display.show(machine.screenModel)
                    trace?.presented(batch)
                }
                writeLinesAfterFrame()
            }
            if let input, polled.dropFirst(3).contains(where: { $0.revents != 0 }) {
                for event in try input.read(timeoutMilliseconds: 0) where event.triggers {
                    if let key = UIKey(rawValue: event.key.rawValue) { apply(.key(key)) }
                }
            }
            if let input {
                if ContinuousClock.now - lastDeviceSearch >= .seconds(1) {
                    lastDeviceSearch = .now
                    input.reopenLost()
                }
                for change in input.takeChanges() {
                    switch change {
                    case .lost, .notYetThere: log.warning("relay-wearable: \(change)")
                    case .back: log("relay-wearable: \(change)")
                    }
                }
            }
        }
    }

    /// Feeds an event, carries out what the state machine asks, and shows the result when
    /// the screen changed.
    func apply(_ event: UIEvent) {
        if handle([event]) { display.show(machine.screenModel) }
        writeLinesAfterFrame()
    }

    /// Writes what `linesAfterFrame` collected, in one write.
    private func writeLinesAfterFrame() {
        guard !linesAfterFrame.isEmpty else { return }
        log(linesAfterFrame.joined(separator: "\n"))
        linesAfterFrame.removeAll(keepingCapacity: true)
    }

    /// Feeds events (as one change) and carries out what the state machine asks; returns
    /// whether the screen changed.
    private func handle(_ events: [UIEvent]) -> Bool {
        for event in events {
            countAlert(event)
            if case .pairingFinished = event, let bluetooth { bluetooth.waitForPairing(WearableBluetooth.waitsForPairing(link)) }
        }
        let actions = machine.handle(events)
        for action in actions {
            switch action {
            case .render:
                continue
            case .respond(let response):
                do {
                    try link.respond(response)
                    log("relay-wearable: response \(response.action.identifier) to notification \(response.notificationIdentifier) queued for the phone")
                } catch {
                    log.error("relay-wearable: could not store the response to notification \(response.notificationIdentifier): \(error)")
                }
            case .panel(let awake):
                do {
                    try framebuffer.setPanelAwake(awake)
                    log("relay-wearable: panel \(awake ? "woken" : "blanked after \(Int(machine.configuration.blankAfter ?? 0)) s idle")", level: .debug)
                } catch where !awake {
                    // The panel stays lit: the state machine must not take the next key for a wake.
                    _ = machine.handle(.panelCannotBlank)
                    log.warning("relay-wearable: the panel's driver refused to blank it (\(error)); it stays on from now on")
                } catch {
                    log.warning("relay-wearable: could not wake the panel: \(error)")
                }
            case .setDoNotDisturb(let on):
                changePreferences("do not disturb \(on ? "on" : "off")") { try link.setDoNotDisturb(on: on) }
            case .mute(let scope, let duration):
                let until = duration.until(from: link.now, in: .current)
                changePreferences("\(Mute(scope, until: until)), chosen on the wearable") { try link.mute(scope, until: until) }
            case .unmute(let scope):
                changePreferences("\(Mute(scope)) removed on the wearable") { try link.unmute(scope) }
            case .clear(let identifier):
                do {
                    try link.clear(identifier)
                    log("relay-wearable: notification \(identifier) cleared from the wearable; the phone keeps it")
                } catch {
                    log.error("relay-wearable: could not store that notification \(identifier) was cleared: \(error); it shows again after a restart")
                }
            case .haptic(let level):
                haptics.play(level)
                alerts += 1
                linesAfterFrame.append("relay-wearable: alert (\(level.rawValue))")
            case .confirmPairing(let accepted, let code):
                if bonding.answer(accepted, shown: code) {
                    // BlueZ's passkey is answered: its screen goes now; Relay's own code follows
                    // once the bond is made (the phone then connects and pairs).
                    _ = machine.handle(.pairingFinished)
                } else {
                    link.confirmPairing(accepted, code: code)
                }
            }
        }
        return actions.contains(.render)
    }

    /// Listens for the phone (on the link socket, or through BlueZ's profile) and waits until it
    /// does, so that the ready line is only printed once the phone can connect; returns what the
    /// ready line says about it.
    private func startLink() throws -> String {
        let link = link
        if let bluetooth {
            // The schedule fires here while the phone is away; stopped with the runtime.
            serving = Task { await link.runLocalFiring() }
            // The phone unpaired this wearable: its bond goes too, and the wearable waits for a phone.
            link.whenPartnerUnpaired { [bluetooth] in
                bluetooth.forgetPhone()
                bluetooth.waitForPairing(true)
            }
            return bluetooth.serve(link, bonding: bonding)
        }
        let listening = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let endpoint = TransportEndpoint.unix(path: linkEndpoint)
        serving = Task {
            // The schedule fires here while the phone is away; stopped with the listener.
            let firing = Task { await link.runLocalFiring() }
            defer { firing.cancel() }
            do {
                try await link.serve(on: endpoint) { _ in listening.signal() }
            } catch {
                failure.withLock { $0 = error }
                listening.signal()
                throw error
            }
        }
        listening.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return "link socket \(linkEndpoint)"
    }

    /// The largest attachment the wearable takes: the phone reduces images to at most 320×320
    /// pixels, whose PNG stays far below this.
    static let maxAttachmentBytes = 1024 * 1024

    /// The most pixels decoded for the screen: the phone sends at most 320×320, so only a
    /// damaged or foreign file comes near it.
    static let maxImagePixels = 4_000_000

    /// What the phone needs to know about this screen.
    private static func capabilities(of geometry: FramebufferGeometry) -> Relay_V1_Capabilities {
        var capabilities = Relay_V1_Capabilities()
        capabilities.screenWidth = UInt32(geometry.width)
        capabilities.screenHeight = UInt32(geometry.height)
        capabilities.colorDepth = geometry.format == .rgb565 ? 16 : 24
        capabilities.maxTitleBytes = UInt32(ModelLimits.titleBytes)
        capabilities.maxBodyBytes = UInt32(ModelLimits.bodyBytes)
        capabilities.fonts = ["DejaVu Sans"]
        capabilities.features = ["snapshot", "attachments"]
        capabilities.maxAttachmentBytes = UInt32(Self.maxAttachmentBytes)
        return capabilities
    }

    /// How long the screen loop sleeps when nothing arrives: until the state machine's next
    /// deadline (the face's next minute, the short look's end, the panel's blanking), a second
    /// at most while a key device is missing and looked for, for ever when there is neither
    /// (a blanked panel with nothing on a timer: issue #33).
    private func pollTimeout() -> Int32 {
        var wait = machine.deadlines.wait(now: clock.now(), uptime: ContinuousClock.now - started)
        if input?.isMissingDevices == true { wait = min(wait ?? .seconds(1), .seconds(1)) }
        guard let wait else { return -1 }
        return Int32(clamping: Int64((wait / .milliseconds(1)).rounded(.up)))
    }

    /// The agent's log.
    var log: AgentLogSink { .standardError }

    // MARK: Control commands

    private func answer(_ request: WearableRequest) -> ControlResponse {
        switch request {
        case .status: status()
        case .press(let key): press(key)
        case .screenshot(let path): screenshot(path)
        case .unpair: unpair()
        case .notifications: notifications()
        case .respond(let id, let action, let text): respond(id: id, action: action, text: text)
        case .vibrate(let level): vibrate(level)
        case .why(let id): why(id)
        case .history(let app): history(app: app)
        case .doNotDisturb(let change): doNotDisturb(change)
        case .mutes(let change): mutes(change)
        }
    }

    /// The latest 50 decisions, of `app` when given, newest first.
    private func history(app: String?) -> ControlResponse {
        do {
            return .success(["decisions": .list(try link.recentDecisions(app: app).map(\.controlValue))])
        } catch {
            return .failure("could not read the decision history: \(error)")
        }
    }

    /// Each decision about notification `id`, oldest first: when, its revision, whether it
    /// alerted and why (Docs/POLICY.md).
    private func why(_ id: UInt32) -> ControlResponse {
        do {
            let decisions = try link.decisions(about: UInt64(id))
            guard !decisions.isEmpty else {
                return .failure("the wearable has decided nothing about notification \(id) in the last week: relayctl notifications lists the ids")
            }
            return .success(["decisions": .list(decisions.map(\.controlValue))])
        } catch {
            return .failure("could not read the decision history: \(error)")
        }
    }

    private func status() -> ControlResponse {
        let uptime = ContinuousClock.now - started
        var values: [String: ControlValue] = [
            "role": .string("wearable"),
            "transport": .string(bluetooth == nil ? "loopback" : "rfcomm"),
            "link": .string(linkStatus.state),
            "screen": .string(Self.name(of: machine.state.screen)),
            "framebuffer": .string(framebuffer.path),
            "width": .int(framebuffer.geometry.width),
            "height": .int(framebuffer.geometry.height),
            "format": .string(framebuffer.geometry.format.rawValue),
            "vibrator": .string(haptics.vibrator),
            "panel": .string(!framebuffer.isPanel ? "none (a file)" : machine.state.panelAwake ? "on" : "blanked"),
            "uptimeSeconds": .int(Int(uptime.components.seconds)),
            "notifications": .int(machine.state.notifications.count),
        ]
        if let rss = ProcessMemory.residentBytes() { values["rssBytes"] = .int(rss) }
        values["alerts"] = .int(alerts)
        values["schedules"] = .int(link.scheduleCount)
        // Apart from a paired phone, the wearable fires the phone's schedule itself.
        values["mode"] = .string(link.isStandalone ? "standalone" : "connected")
        if let next = link.nextLocalFireDate(after: clock.now()) { values["nextLocalFire"] = .string(next.formatted(.iso8601)) }
        values["offlineOccurrences"] = .int(link.offlineOccurrences)
        values["clockOffset"] = .string(Self.clockOffset(clock.offset, linkStatus.clockAdjustment))
        if linkStatus.clockAdjustment != nil { values["clockOffsetMilliseconds"] = .int(Int((clock.offset * 1000).rounded())) }
        values["queuedResponses"] = .int(link.queuedResponses)
        values.merge(doNotDisturbValues) { $1 }
        values["mutes"] = .int(link.alertPolicy.mutes.filter { $0.isInForce(at: clock.now()) }.count)
        let attachments = link.attachmentCounts
        values["attachments"] = .int(attachments.stored)
        values["attachmentsWaiting"] = .int(attachments.waiting)
        if let shown = machine.state.screen.notificationIdentifier, let notification = machine.state.notification(shown) {
            values["showing"] = .string(notification.content.title)
        }
        values["queued"] = .int(linkStatus.queued)
        values["fingerprint"] = .string(linkStatus.ownFingerprint)
        if let bluetooth {
            values.merge(bluetooth.statusValues) { $1 }
        } else {
            values["linkSocket"] = .string(linkEndpoint)
        }
        // The code on the pairing screen, and whether it is BlueZ's bonding passkey.
        if case .pairing(let position) = machine.state.screen { values["pairingCode"] = .string(position.code) }
        if let passkey = bonding.passkey { values["bluetoothPasskey"] = .string(passkey) }
        if let peer = linkStatus.peerName { values["peer"] = .string(peer) }
        if let partner = linkStatus.partnerFingerprint { values["partnerFingerprint"] = .string(partner) }
        if let since = linkStatus.connectedSince { values["connectedSeconds"] = .int(Int(Date().timeIntervalSince(since))) }
        if let error = linkStatus.lastError { values["lastError"] = .string(error) }
        return .success(values)
    }

    private var linkStatus: WearableLinkStatus { link.status }

    /// `+3600.2 s (the phone's clock is ahead; the system clock is left alone)`, `0`.
    private static func clockOffset(_ offset: TimeInterval, _ adjustment: ClockAdjustment?) -> String {
        let seconds = (offset * 10).rounded() / 10
        switch adjustment {
        case nil: return "0 (no phone's clock yet)"
        case .phoneClockWrong?: return "\(seconds) s (the phone's clock cannot be right; not followed)"
        case .stepped?: return "0 (the system clock was set to the phone's)"
        default: return seconds == 0 ? "0 (agrees with the phone's)" : "\(seconds > 0 ? "+" : "")\(seconds) s (the phone's clock is \(seconds > 0 ? "ahead" : "behind"); the times shown follow it)"
        }
    }

    private func unpair() -> ControlResponse {
        do {
            try link.unpair()
        } catch {
            return .failure("could not forget the phone: \(error)")
        }
        bluetooth?.forgetPhone()
        bluetooth?.waitForPairing(true)
        return .success(["link": .string("unpaired")])
    }

    private func vibrate(_ name: String) -> ControlResponse {
        guard let level = InterruptionLevel(rawValue: name) else {
            return .failure("vibrate needs \"level\": one of " + InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let pattern = haptics.play(level)
        return .success(["pattern": .string(pattern.description), "vibrator": .string(haptics.vibrator)])
    }

    private func press(_ name: String) -> ControlResponse {
        let names = UIKey.allCases.map(\.rawValue).joined(separator: ", ")
        guard let key = UIKey(rawValue: name) else {
            return .failure("press needs \"key\": one of \(names)")
        }
        apply(.key(key))
        return .success(["screen": .string(Self.name(of: machine.state.screen))])
    }

    private func screenshot(_ path: String) -> ControlResponse {
        do {
            try PNGFile.write(framebuffer.snapshot(), to: path)
        } catch {
            return .failure("could not write the screenshot: \(error)")
        }
        return .success([
            "path": .string(path), "width": .int(framebuffer.geometry.width), "height": .int(framebuffer.geometry.height),
        ])
    }

    /// The screen's name in responses: the case name of `Screen`.
    static func name(of screen: Screen) -> String {
        switch screen {
        case .idle: "idle"
        case .shortLook: "shortLook"
        case .longLook: "longLook"
        case .textReply: "textReply"
        case .list: "list"
        case .thread: "thread"
        case .pairing: "pairing"
        case .muteMenu: "muteMenu"
        case .controls: "controls"
        }
    }
}
