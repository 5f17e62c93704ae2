import Foundation
import RelayTestSupport
import Synchronization
import Testing
import WearableAgent

/// The wearable follows the phone's clock (Docs/PROTOCOL.md, "The phone's clock").
@Suite struct PhoneClockTests {
    static let boot = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01, a board after a boot

    @Test func aDifferenceOverTwoSecondsIsKeptAsAnOffsetThatEveryReadingCarries() async {
        let base = ManualClock(Self.boot)
        let clock = PhoneFollowingClock(base: base)
        let phone = Self.boot.addingTimeInterval(3_600)
        #expect(clock.follow(phoneTime: phone) == .offset(3_600))
        #expect(clock.now() == phone)
        // Within 2 s of the corrected time: nothing changes.
        #expect(clock.follow(phoneTime: phone.addingTimeInterval(1.5)) == .agrees(offset: 3_600))
        #expect(clock.offset == 3_600)
        // A sleep until a time on the phone's clock ends when the board's own clock gets there.
        let woke = Mutex(false)
        let sleeper = Task {
            await clock.sleep(until: phone.addingTimeInterval(10))
            woke.withLock { $0 = true }
        }
        base.set(Self.boot.addingTimeInterval(9))
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!woke.withLock { $0 })
        base.set(Self.boot.addingTimeInterval(10))
        await sleeper.value
        #expect(woke.withLock { $0 })
    }

    @Test func theSystemClockIsSetWhenAllowedAndAnOffsetKeptWhenThatIsRefused() {
        let set = Mutex<[Date]>([])
        let stepping = PhoneFollowingClock(base: ManualClock(Self.boot)) { date in set.withLock { $0.append(date) } }
        let phone = Self.boot.addingTimeInterval(-86_400 * 365)
        #expect(stepping.follow(phoneTime: phone) == .stepped(by: -86_400 * 365))
        #expect(set.withLock { $0 } == [phone])
        #expect(stepping.offset == 0)
        struct Refused: Error, CustomStringConvertible { var description: String { "Operation not permitted" } }
        let refused = PhoneFollowingClock(base: ManualClock(Self.boot)) { _ in throw Refused() }
        #expect(refused.follow(phoneTime: Self.boot.addingTimeInterval(60)) == .stepRefused(offset: 60, reason: "Operation not permitted"))
        #expect(refused.now() == Self.boot.addingTimeInterval(60))
    }

    @Test func aPhoneClockThatCannotBeRightIsNotFollowed() {
        let clock = PhoneFollowingClock(base: ManualClock(Self.boot))
        for absurd in [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 8_000_000_000)] {
            let adjustment = clock.follow(phoneTime: absurd)
            #expect(adjustment == .phoneClockWrong(absurd))
            #expect(adjustment.description.hasSuffix("which cannot be right; the wearable keeps its own"))
        }
        #expect(clock.now() == Self.boot)
        #expect(SystemClock().follow(phoneTime: Self.boot) == .notFollowed)
    }

    /// Over the link: the partner's Hello carries the phone's clock, and the wearable, two
    /// years behind after a boot, takes it up.
    @Test(.timeLimit(.minutes(1))) func thePartnersHelloSetsTheWearablesClock() async throws {
        let base = ManualClock(Self.boot)
        try await AgentLinkHarness.with(clock: PhoneFollowingClock(base: base)) { harness throws in
            let connected = try await harness.startPaired()
            #expect(connected)
            let status = harness.wearable.status
            guard case .offset(let offset)? = status.clockAdjustment else {
                Issue.record("the wearable did not follow the phone's clock: \(String(describing: status.clockAdjustment))")
                return
            }
            #expect(abs(Self.boot.addingTimeInterval(offset).timeIntervalSinceNow) < 5)
        }
    }

    /// During a long session: the phone's clock is stepped (NTP caught up), and the wearable
    /// takes the new time up from the next heartbeat, without a reconnect.
    @Test(.timeLimit(.minutes(1))) func theWearableFollowsThePhonesClockFromItsHeartbeats() async throws {
        let base = ManualClock(Self.boot)
        let phoneTime = Mutex(Self.boot.addingTimeInterval(3_600))
        try await AgentLinkHarness.with(
            heartbeat: .milliseconds(200), clock: PhoneFollowingClock(base: base), phoneClock: { phoneTime.withLock { $0 } }
        ) { harness throws in
            #expect(try await harness.startPaired())
            // The hello set the offset; a heartbeat may already have found it agreeing.
            let first = harness.wearable.status.clockAdjustment
            #expect(first == .offset(3_600) || first == .agrees(offset: 3_600), "\(String(describing: first))")
            let connectedSince = harness.wearable.status.connectedSince
            phoneTime.withLock { $0 = Self.boot.addingTimeInterval(7_200) }
            // Each heartbeat brings the phone's reading; wait until one has been taken up.
            var adjustment = harness.wearable.status.clockAdjustment
            while adjustment != .offset(7_200) && adjustment != .agrees(offset: 7_200) {
                try await Task.sleep(for: .milliseconds(20))
                adjustment = harness.wearable.status.clockAdjustment
            }
            #expect(harness.wearable.status.connectedSince == connectedSince)
        }
    }
}
