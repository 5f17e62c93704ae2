import Foundation
import RelayCore
import RelayWire
import Testing

/// The shared wishes on the wire: what is sent is what is received, and what cannot be taken is
/// refused with its reason.
@Suite struct PreferencesMappingTests {
    let t0 = Date(timeIntervalSince1970: 1_812_361_260.123)

    @Test func everyItemSurvivesTheWire() throws {
        var preferences = SharedPreferences()
        _ = preferences.setDoNotDisturb(.on(until: t0 + 5400), at: t0)
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        _ = preferences.setQuietHours(QuietHours(start: 22 * 60, end: 7 * 60, weekdays: [2, 3, 4, 5, 6], timeZone: zone), at: t0 + 1)
        _ = preferences.mute(.app("Mail"), until: t0 + 3600, at: t0 + 2)
        _ = preferences.mute(.thread(app: "Chat", thread: "7"), until: nil, at: t0 + 3)
        _ = preferences.mute(.app("Shop"), until: nil, at: t0 + 4)
        _ = preferences.unmute(.app("Shop"), at: t0 + 5)
        let wire = Relay_V1_Preferences(preferences)
        #expect(wire.problem == nil)
        let received = try Relay_V1_Preferences(serializedBytes: try wire.serializedBytes() as Data).preferences
        #expect(received == preferences)
        // Equal sets encode equally, whatever order the dictionary keeps.
        #expect(try Relay_V1_Preferences(received).serializedBytes() as Data == (try wire.serializedBytes() as Data))
        // Quiet hours turned off travel as such.
        var off = SharedPreferences()
        _ = off.setQuietHours(nil, at: t0)
        #expect(Relay_V1_Preferences(off).preferences == off)
    }

    @Test func whatCannotBeTakenIsRefusedWithItsReason() {
        var wire = Relay_V1_Preferences()
        wire.quietHours.on = true
        wire.quietHours.startMinute = 1500
        wire.quietHours.timeZone = "UTC"
        #expect(wire.problem?.contains("are not minutes of a day") == true)
        wire.quietHours.startMinute = 60
        // A zone this device does not know leaves only that item out.
        wire.quietHours.timeZone = "Mars/Olympus"
        var mute = Relay_V1_MutePreference()
        mute.app = "Mail"
        wire.mutes = [mute]
        #expect(wire.problem == nil)
        #expect(wire.preferences.quietHours == nil && wire.preferences.activeMutes(at: Date()).count == 1)
        wire.quietHours.timeZone = String(repeating: "Z", count: 65)
        #expect(wire.problem?.contains("more than 64") == true)
        wire.quietHours.timeZone = "UTC"
        #expect(wire.problem == nil)
        mute.app = String(repeating: "a", count: 300)
        wire.mutes = [mute]
        #expect(wire.problem?.contains("an app name of 300 bytes") == true)
        mute.app = "Mail"
        mute.untilMillis = Int64.max
        wire.mutes = [mute]
        #expect(wire.problem?.contains("is not a time between the years 1 and 9999") == true)
        var change = Relay_V1_Change()
        change.preferences = wire
        #expect(WireLimits.problem(in: change) != nil)
    }
}
