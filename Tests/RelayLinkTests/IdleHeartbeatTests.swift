import Foundation
import RelayLink
import RelayTestSupport
import Testing

/// The idle heartbeat (PROTOCOL.md §8.7): where the transport reports a lost link itself
/// (RFCOMM), an idle session pings rarely, so that a radio can sleep; as soon as something
/// waits for the peer's acknowledgement, the fast heartbeat and deadline are back.
@Suite struct IdleHeartbeatTests {
    let phoneKey = StaticKeyPair.generate()
    let wearableKey = StaticKeyPair.generate()
    let start = ContinuousClock.now

    /// The figures of `LinkTimeouts.supervisedIdleHeartbeat`: the phone pings an idle link, the
    /// wearable only if the phone stops.
    func supervised(_ now: ContinuousClock.Instant, idleInterval: Duration = .seconds(75)) -> LivenessMonitor {
        LivenessMonitor(interval: .seconds(5), timeout: .seconds(15), idleInterval: idleInterval, now: now)
    }

    @Test func anIdleSessionSendsAtMostSixtyFramesAnHourEachWay() throws {
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        var pair = try connect(
            phone: phoneKey, wearable: wearableKey, phoneState: phone, wearableState: wearable, now: start,
            liveness: { [self] in supervised($0) }, wearableLiveness: { [self] in supervised($0, idleInterval: .seconds(90)) })
        var toWearable = perform(pair.phone.start(), on: &pair.phone, state: &phone).frames
        var toPhone = perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames
        var sent = (phone: 0, wearable: 0)
        // An hour in steps of a second: what each side sent arrives, then each side ticks.
        for second in 0...3600 {
            let now = start + .seconds(second)
            let toWearableNow = toWearable
            toWearable = []
            for frame in toWearableNow {
                let reply = perform(pair.wearable.receive(frame, at: now), on: &pair.wearable, state: &wearable)
                toPhone += reply.frames
                #expect(reply.failures.isEmpty, "\(reply.failures)")
            }
            let toPhoneNow = toPhone
            toPhone = []
            for frame in toPhoneNow {
                let reply = perform(pair.phone.receive(frame, at: now), on: &pair.phone, state: &phone)
                toWearable += reply.frames
                #expect(reply.failures.isEmpty, "\(reply.failures)")
            }
            if second > 1 {  // the hellos and what answers them are not the idle link's
                sent.phone += toWearableNow.count
                sent.wearable += toPhoneNow.count
            }
            let phoneTick = perform(pair.phone.tick(at: now), on: &pair.phone, state: &phone)
            let wearableTick = perform(pair.wearable.tick(at: now), on: &pair.wearable, state: &wearable)
            toWearable += phoneTick.frames
            toPhone += wearableTick.frames
            let failures = phoneTick.failures + wearableTick.failures
            #expect(failures.isEmpty && pair.phone.isReady && pair.wearable.isReady, "the link died at \(second) s: \(failures)")
            if !failures.isEmpty { return }
        }
        #expect(sent.phone <= 60 && sent.wearable <= 60, "frames in an idle hour: phone \(sent.phone), wearable \(sent.wearable)")
        // The phone still pings (and the wearable answers), so a hung process is noticed.
        #expect(sent.phone >= 40 && sent.wearable >= 40)
    }

    @Test func whatWaitsForAnAcknowledgementBringsBackTheFastHeartbeatAndDeadline() throws {
        var monitor = supervised(start)
        // Idle: nothing before 75 s, dead only after 85 s of silence.
        #expect(monitor.tick(at: start + .seconds(74), idle: true) == nil)
        #expect(monitor.tick(at: start + .seconds(75), idle: true) == .ping(1))
        #expect(monitor.tick(at: start + .seconds(84), idle: true) != .dead(silentFor: .seconds(84)))
        #expect(monitor.tick(at: start + .seconds(85), idle: true) == .dead(silentFor: .seconds(85)))

        // Waiting for an acknowledgement: a ping after 5 s, dead after 15 s.
        var busy = supervised(start)
        #expect(busy.tick(at: start + .seconds(5), idle: false) == .ping(1))
        #expect(busy.tick(at: start + .seconds(10), idle: false) == .ping(2))
        #expect(busy.tick(at: start + .seconds(15), idle: false) == .dead(silentFor: .seconds(15)))
    }

    @Test func withoutAnIdleIntervalAnIdleSessionPingsAsOftenAsABusyOne() {
        var monitor = LivenessMonitor(interval: .seconds(5), timeout: .seconds(15), now: start)
        #expect(monitor.tick(at: start + .seconds(5), idle: true) == .ping(1))
        #expect(monitor.tick(at: start + .seconds(15), idle: true) == .dead(silentFor: .seconds(15)))
    }
}
