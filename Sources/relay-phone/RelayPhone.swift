import ArgumentParser
import Foundation
import RelayCLI
import RelayControl
import RelayCore
import RelayDBus
import RelayLockWatch
import RelayStore
import RelaySystem
import PhoneAgent
import ServiceLifecycle
import UnixSignals

/// `relay-phone`: the phone-side agent.
@main
struct RelayPhone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-phone",
        abstract: "The phone agent: mirrors notifications to the paired wearable.",
        discussion: """
            relay-phone takes notifications on D-Bus (as the org.freedesktop.Notifications \
            server, or as a monitor beside another server, plus Relay's own rich API), keeps \
            them in its notification centre and mirrors them over Bluetooth RFCOMM, or a local \
            socket in loopback mode, to relay-wearable while the phone is locked.

            It owns org.freedesktop.Notifications on the bus, or monitors the server that owns \
            it, keeps what it is sent, and lets `relayctl delivered`, `invoke`, `reply` and \
            `dismiss` act on it as the wearable does (Docs/PHONE.md). With --transport rfcomm \
            (the default) it connects to the bonded wearable through BlueZ (pair with `relayctl \
            pair`; Docs/BLUETOOTH.md); with --transport loopback, to relay-wearable's link \
            socket on the same machine. It prints "ready: …" on standard output once it serves \
            both the bus and its control socket, naming the wearable it connects to and ending \
            with its mode (server or monitor), and stops on SIGINT or SIGTERM, removing its \
            socket.
            """,
        version: "relay-phone \(RelayVersion.string)")

    @OptionGroup var agent: AgentOptions
    @OptionGroup var phone: PhoneOptions

    func run() async throws {
        // The configuration before anything else: a mistake in it stops the agent (exit 1, the
        // file's line on standard error) before a socket or a bus is touched.
        // SIGHUP reads the filter rules again; until that is set up, it must not end the agent
        // (its default action), as a closed terminal must not either.
        signal(SIGHUP, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        var settings = try PhoneSettings.load(agent: agent, phone: phone, environment: environment)
        let log = AgentLogSink.standardError
        let serviceManager = ServiceManager(agent: "relay-phone", environment: environment, log: log)
        log("relay-phone: " + settings.source)
        // Bluetooth next: without it (no kernel support, no bluetoothd, no adapter) the agent
        // says which and stops before it touches a socket or its state (PhoneBluetooth.swift).
        let bluetooth: PhoneBluetooth? = if settings.transport == .rfcomm { try await PhoneBluetooth.start(settings, log: log) } else { nil }
        settings.link.connector = bluetooth
        // The socket first, before any thread exists: the listener's umask is process-wide.
        let stop = try StopRequest()
        let listener = try ControlListener.open(path: settings.controlSocket, access: settings.controlAccess)
        defer { listener.close() }

        // The state (keys, database) and the link to the wearable, before the bus: a damaged or
        // open state directory stops the agent with its reason before it serves anything.
        let link = try PhoneLink(
            directory: settings.stateDirectory, configuration: settings.link, logger: AgentLog.logger(label: "relay-phone"))
        // `relayctl lock` holds until `relayctl lock --auto`, also across restarts.
        let lock = PhoneLock(override: try link.database.read(PhoneSchema.lockOverride), withoutSource: settings.withoutLockSource, log: log)
        let mirror = try MirrorCoordinator(link: link, settings: settings.mirror, logger: AgentLog.logger(label: "relay-phone"))
        // `relayctl dnd on` holds until `relayctl dnd off` or its time, also across restarts, as
        // do the mutes; both are shared with the wearable.
        let doNotDisturb = DoNotDisturbSwitch(preferences: try mirror.storedPreferences(), log: log)
        // Read now; again on SIGHUP (trapped from here on, before the agent says it is ready)
        // and on `relayctl filter reload`.
        let filterRules = FilterRuleBook(path: settings.filterRulesFile, log: log)
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        // The centre, the mirror and the keys move in memory before their commit; a disk that
        // fails leaves them ahead of it, with nothing to undo them. Stopping as a crash would is
        // the way back: the next start rebuilds from what is stored.
        link.committer.whenStorageFails { error in
            let advice =
                StorageFailure.isStorageFailure(error)
                ? "Check the state directory's disk (space, permissions) before restarting."
                : "The database refused it, which is a bug in relay-phone: please report it with this log."
            log("relay-phone: could not store a change (\(error)); stopping, so that the next start works from what is stored. " + advice, level: .critical)
            serviceManager.stopping()
            Glibc.exit(EX_IOERR)
        }
        // Whether a power cut may have taken commits the wearable already saw (RunRecord.swift),
        // asked before this run writes anything.
        let bootID = RunRecord.currentBootID()
        let lastRun = try link.database.read { db in try RunRecord.check(db, bootID: bootID) }
        let restore = PhoneRestore(notifications: try mirror.storedNotifications(), apps: try mirror.storedAppRequests(), now: (Date(), .now))
        for line in restore.dropped { log("relay-phone: " + line) }
        // Images of notifications that left while the agent was down (or before a crash) go now.
        let swept = link.attachments.sweep(keeping: restore.attachmentsInUse)
        if swept > 0 { log("relay-phone: \(swept) stored attachments no notification refers to any more were deleted") }

        let connection = try await DBusConnection.connect(to: settings.bus)
        let server = NotificationServer(
            connection: connection, log: log, mirror: mirror, restored: restore.notifications, restoredApps: restore.apps,
            restoredLastID: try mirror.storedLastCentreID(), isLocked: { lock.isLocked }, doNotDisturb: doNotDisturb,
            filterRules: filterRules)
        // The `Notify` calls read from the bus at once are committed together, in one job and one sync.
        connection.aroundDispatch { round in server.committingDeliveriesByRound(round) }
        link.attach(server.coordinator)
        let busID = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", method: "GetId")
        server.coordinator.busID.withLock { $0 = (try? busID.decode(0, as: String.self)) ?? "" }
        if lastRun == .mayHaveLostWrites {
            log("relay-phone: the last run did not stop before the machine restarted; a new log epoch replaces what the wearable holds")
            try server.coordinator.recoverFromLostWrites()
        }
        // The wearable fires scheduled requests by the rule each was mirrored with: the rules may
        // have changed while the phone was stopped, and change again at each reload.
        try server.coordinator.filterRulesChanged()
        // The configuration's previews, language and canned replies, when they changed since the
        // wearable last heard them.
        try mirror.sendSettingsIfChanged()
        filterRules.whenReloaded { [coordinator = server.coordinator] in
            do { try coordinator.filterRulesChanged() } catch {
                log("relay-phone: could not mirror the scheduled requests again under the new filter rules: \(error)", level: .error)
            }
        }
        do {
            try link.database.write { db in try RunRecord.started(db, bootID: bootID) }
        } catch {
            throw PhoneError(
                "cannot write to the database in \(settings.stateDirectory.path) (\(error)); free space on its disk or fix its permissions, then start relay-phone again")
        }
        bluetooth?.follow(link)
        let rich = RichNotificationService(server: server, log: log)
        // Lock sources: logind on the system bus, screensavers on the bus served (the session
        // bus). Their first readings come before the name is taken: a locked phone must not
        // count as unlocked for the first notifications.
        let systemBus = await PhoneLock.connectSystemBus(settings.systemBus, named: settings.systemBusName, log: log)
        let lockWatcher = LockWatcher(system: systemBus, session: connection) { log("relay-phone: " + $0) }
        let following = lock.follow(lockWatcher)
        if await !lock.waitForFirstReadings(within: .seconds(3)) {
            log("relay-phone: the lock sources did not answer within 3 s; until they do, the phone counts as \(lock.isLocked ? "locked" : "unlocked")")
        }
        // Changes are logged as they come; the state they change from is said once here.
        log("relay-phone: lock state at start: " + lock.summary)
        let monitor: NotificationMonitor?
        let inhibitorWatch: Task<Void, Never>
        var desktopWatch: DesktopDoNotDisturbWatch?
        var desktopQuieting: DesktopQuieting?
        do {
            // Inhibitors that leave the bus are watched for before anyone may inhibit.
            inhibitorWatch = try await doNotDisturb.serve(on: connection)
            // Exported before the name is ours, so the first call after acquiring it finds the object.
            try connection.export([server.interface], at: NotificationServer.path)
            // A crash may have left the desktop quietened for the wearable: given back first,
            // whatever the configuration says now.
            await DesktopQuieting.undoAfterCrash(connection, marker: Self.quietedMarker(settings)) { log($0) }
            monitor = try await PhoneMode.start(on: connection, bus: settings.bus, server: server, stop: stop, log: log)
            // Relay's own API (Docs/RICH-API.md), in either mode.
            try await rich.start(on: connection)
            // Beside another server, its own do not disturb is one of the phone's (Docs/POLICY.md).
            if monitor != nil {
                // What the phone quietens itself for the wearable is not the user's do not disturb.
                let quieting =
                    settings.onlyWearableAlerts
                    ? Self.quietDesktop(connection, link: link, lock: lock, settings: settings, doNotDisturb: doNotDisturb, log: log) : nil
                desktopQuieting = quieting
                desktopWatch = try await DesktopDoNotDisturbWatch.start(on: connection, serverReplaced: { quieting?.serverReplaced() }) {
                    desktop, on in
                    doNotDisturb.setDesktop(desktop, on: quieting?.userState(of: desktop, reported: on) ?? on)
                }
            } else if settings.onlyWearableAlerts {
                log("relay-phone: mirror.only_wearable_alerts: relay-phone is the notification server and shows nothing itself; nothing to quieten")
            }
            // Before the link runs: a response it applies meanwhile would overtake them.
            try server.coordinator.emitStoredSignals(monitoring: monitor != nil)
        } catch {
            desktopWatch?.stop()
            await desktopQuieting?.stop()
            lockWatcher.stop()
            following.cancel()
            await systemBus?.close()
            await connection.close()
            throw error
        }
        let control = PhoneControl(
            server: server, lock: lock, busName: connection.uniqueName, started: .now, monitor: monitor, link: link,
            doNotDisturb: doNotDisturb, mirror: mirror, filterRules: filterRules)
        let ready = "ready: \(NotificationServer.busName) on \(settings.busName) as \(connection.uniqueName), control socket \(listener.path), wearable \(link.status.state) at \(bluetooth?.target ?? link.status.endpoint), mode: \(monitor?.mode ?? "server")\n"
        // The group stops its services in the reverse of this order: the control socket first,
        // then the bus's watcher, then the link (before the bus closes below: a response it applied
        // afterwards would be acknowledged to the wearable while its signal could no longer reach
        // the app), then the sweeper.
        // What follows the group runs however it ended: a service that failed must not leave the
        // clean stop unrecorded, the bus open or a commit unwritten.
        var failure: (any Error)?
        do {
            try await AgentServices.run(
                [
                    AgentServices.service("filter rules on SIGHUP") { await cancelWhenGracefulShutdown { await filterRules.reload(on: hangUps) } },
                    AgentServices.service("attachment sweeper") {
                        await cancelWhenGracefulShutdown { await AttachmentSweeper.run(server: server, store: link.attachments, log: log) }
                    },
                    AgentServices.service("link") { await cancelWhenGracefulShutdown { await link.run() } },
                    // The bus going away stops the agent as a signal would: the control thread, which
                    // the group stops first, returns, and the group shuts down in its order. The watcher
                    // then waits for its turn (returning before it would be an unexpected end).
                    AgentServices.service("bus watcher") {
                        _ = try? await cancelWhenGracefulShutdown { try await connection.waitUntilDisconnected() }
                        stop.request()
                        try? await gracefulShutdown()
                    },
                    AgentServices.thread("control", stop: stop) {
                        // Printed only now that the group handles SIGTERM: whoever started the agent
                        // may stop it as soon as it reads this line.
                        FileHandle.standardOutput.write(Data(ready.utf8))
                        // Under a Type=notify unit: started now, and D-Bus activation's waiters may call.
                        serviceManager.ready("serving \(NotificationServer.busName)")
                        // Start-up is over: its code need not stay resident (StartupPages.swift).
                        StartupPages.release()
                        ControlThread.loop(listener: listener, stop: stop, log: log, handle: control.handle)
                        serviceManager.stopping()
                    },
                ], logger: AgentLog.logger(label: "relay-phone"), hangUpHandled: true)
        } catch {
            failure = error
        }
        await monitor?.stop()
        // Calls still waiting for their image are answered (refused) before the bus closes, and
        // the one being taken in reaches the centre first.
        server.images?.stop()
        server.coordinator.stop()
        rich.stop()
        lockWatcher.stop()
        desktopWatch?.stop()
        // Given back before the bus closes (Plasma would end its inhibition then anyway; dunst would stay paused).
        await desktopQuieting?.stop()
        following.cancel()
        inhibitorWatch.cancel()
        await systemBus?.close()
        await bluetooth?.stop()
        let lost = !connection.isConnected || monitor?.lost == true
        await connection.close()
        // Through the committer, so that it follows every write queued before it.
        do { try link.committer.submit { db in try RunRecord.stopped(db) }.waitBlocking() } catch {
            log.warning("relay-phone: could not record the clean stop (after a restart of the machine, the next start-up sends the wearable a snapshot): \(error)")
        }
        link.committer.stop()
        link.detach()
        if let failure { throw failure }
        if lost { throw PhoneError("the bus went away; relay-phone stopped") }
        log("relay-phone: stopping on signal")
    }
}

/// A reason relay-phone cannot run, as one sentence.
struct PhoneError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension RelayPhone {
    /// Keeps the monitored desktop's server quiet while the wearable is connected
    /// (`mirror.only_wearable_alerts`); what it gives back is read again for the phone's do not disturb.
    static func quietDesktop(
        _ connection: DBusConnection, link: PhoneLink, lock: PhoneLock, settings: PhoneSettings, doNotDisturb: DoNotDisturbSwitch,
        log: AgentLogSink
    ) -> DesktopQuieting {
        let quieting = DesktopQuieting(
            connection: connection, marker: quietedMarker(settings), log: { log($0) },
            reread: { desktop, on in doNotDisturb.setDesktop(desktop, on: on) })
        link.whenConnectionChanges { connected in quieting.linkChanged(connected: connected) }
        lock.changed.set { locked in quieting.lockChanged(locked: locked) }
        quieting.lockChanged(locked: lock.isLocked)
        return quieting
    }

    /// The file naming the desktop's pauses relay-phone holds (`DesktopQuieting`).
    static func quietedMarker(_ settings: PhoneSettings) -> String {
        settings.stateDirectory.path + "/desktop-quieted"
    }
}
