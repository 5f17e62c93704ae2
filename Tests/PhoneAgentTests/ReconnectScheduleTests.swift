import PhoneAgent
import Testing

/// The phone's waits between attempts to reach the wearable, with the time since the last
/// session passed in.
@Suite struct ReconnectScheduleTests {
    private func waits(_ schedule: inout ReconnectSchedule, _ count: Int, since: Duration?) -> [Int64] {
        (0..<count).map { _ in schedule.wait(sinceLastSession: since).components.seconds }
    }

    @Test func withoutARecentSessionWaitsDoubleUpToTheMaximum() {
        var schedule = ReconnectSchedule(minimum: .seconds(1), maximum: .seconds(60))
        #expect(waits(&schedule, 8, since: nil) == [1, 2, 4, 8, 16, 32, 60, 60])
    }

    /// A restarted wearable, or one back in range, is found within seconds for two minutes
    /// after its session ended; after that the waits grow on from there.
    @Test func rightAfterASessionEndedWaitsStayShortThenGrowOn() {
        var schedule = ReconnectSchedule(minimum: .seconds(1), maximum: .seconds(60))
        #expect(waits(&schedule, 6, since: .seconds(10)) == [1, 2, 4, 5, 5, 5])
        #expect(waits(&schedule, 4, since: .seconds(130)) == [10, 20, 40, 60])
        schedule.connected()
        #expect(waits(&schedule, 2, since: .seconds(1)) == [1, 2])
    }

    @Test func theFastCapStaysWithinTheConfiguredRange() {
        var slow = ReconnectSchedule(minimum: .seconds(10), maximum: .seconds(600))
        #expect(waits(&slow, 2, since: .seconds(1)) == [10, 10])
        var tight = ReconnectSchedule(minimum: .seconds(1), maximum: .seconds(2))
        #expect(waits(&tight, 3, since: .seconds(1)) == [1, 2, 2])
    }
}
