import Foundation
import RelayLink
import RelayTestSupport
import RelayWire
import Synchronization
import Testing

/// The phone's wall clock travels in its hello and in every heartbeat it sends, ping or pong
/// (Docs/PROTOCOL.md, "The phone's clock"); the wearable's session hands each reading to its
/// owner, and sends none of its own.
@Suite struct PhoneTimeTests {
    let start = ContinuousClock.now

    @Test func thePhonesHelloAndHeartbeatsCarryItsClock() throws {
        var phone = DurableSide(epoch: 1)
        var wearable = DurableSide(epoch: 2)
        let phoneTime = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var pair = try connect(
            phone: .generate(), wearable: .generate(), phoneState: phone, wearableState: wearable, now: start,
            phoneTimeSource: { phoneTime.withLock { $0 } })
        var heardByWearable: [Date] = []
        var heardByPhone: [Date] = []
        var helloTime: Int64?

        func toWearable(_ frames: [Data], at now: ContinuousClock.Instant) -> [Data] {
            var replies: [Data] = []
            for frame in frames {
                let actions = pair.wearable.receive(frame, at: now)
                for action in actions {
                    if case .peerTime(let time) = action { heardByWearable.append(time) }
                    if case .peerHello(let hello) = action { helloTime = hello.sentAtMillis }
                }
                replies += perform(actions, on: &pair.wearable, state: &wearable).frames
            }
            return replies
        }
        func toPhone(_ frames: [Data], at now: ContinuousClock.Instant) -> [Data] {
            var replies: [Data] = []
            for frame in frames {
                let actions = pair.phone.receive(frame, at: now)
                for case .peerTime(let time) in actions { heardByPhone.append(time) }
                replies += perform(actions, on: &pair.phone, state: &phone).frames
            }
            return replies
        }

        #expect(toWearable(perform(pair.phone.start(), on: &pair.phone, state: &phone).frames, at: start).isEmpty)
        _ = toPhone(perform(pair.wearable.start(), on: &pair.wearable, state: &wearable).frames, at: start)
        #expect(helloTime == 1_800_000_000_000)

        // Ten minutes later by the phone's clock (stepped by NTP, say): its ping says so …
        phoneTime.withLock { $0 = Date(timeIntervalSince1970: 1_800_000_600.25) }
        let later = start + .seconds(5)
        let ping = perform(pair.phone.tick(at: later), on: &pair.phone, state: &phone).frames
        #expect(ping.count == 1)
        let pong = toWearable(ping, at: later)
        #expect(heardByWearable == [Date(timeIntervalSince1970: 1_800_000_600.25)])
        // … and so does its pong to the wearable's ping; the wearable's own carry no time.
        _ = toPhone(pong, at: later)
        phoneTime.withLock { $0 = Date(timeIntervalSince1970: 1_800_000_601) }
        let quiet = later + .seconds(5)
        let wearablePing = perform(pair.wearable.tick(at: quiet), on: &pair.wearable, state: &wearable).frames
        #expect(wearablePing.count == 1)
        _ = toWearable(toPhone(wearablePing, at: quiet), at: quiet)
        #expect(heardByWearable.last == Date(timeIntervalSince1970: 1_800_000_601))
        #expect(heardByWearable.count == 2)
        #expect(heardByPhone.isEmpty)
    }
}
