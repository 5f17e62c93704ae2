import Foundation
import RelayCore
import RelayHaptics
import Synchronization
import Testing
import RelaySystem

/// Records each sleep together with what the motor's value file held while it slept, so a
/// pattern's timeline is checked without time passing.
final class RecordingSleeper: HapticSleeper {
    let valuePath: String
    let failAfter: Int?
    private let log = Mutex<[(value: String, duration: Duration)]>([])

    init(valuePath: String, failAfter: Int? = nil) {
        self.valuePath = valuePath
        self.failAfter = failAfter
    }

    var timeline: [(value: String, duration: Duration)] { log.withLock { $0 } }

    func sleep(for duration: Duration) async throws {
        let value = (try? String(contentsOfFile: valuePath, encoding: .utf8)) ?? "?"
        let count = log.withLock { entries in
            entries.append((value, duration))
            return entries.count
        }
        if let failAfter, count > failAfter { throw CancellationError() }
    }
}

@Suite struct HapticsTests {
    private func valueFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-gpio-\(UUID().uuidString)").path
        try Data("0".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func eachInterruptionLevelHasItsPattern() {
        #expect(VibrationPattern.pattern(for: .passive).pulses.isEmpty)
        #expect(VibrationPattern.pattern(for: .active).pulses.count == 1)
        #expect(VibrationPattern.pattern(for: .timeSensitive).pulses.count == 2)
        let critical = VibrationPattern.pattern(for: .critical)
        #expect(critical.pulses.count == 3)
        #expect(critical.pulses.allSatisfy { $0.on >= .milliseconds(500) })
        #expect(VibrationPattern.pattern(for: .timeSensitive).duration == .milliseconds(340))
    }

    @Test func theGPIODriverWritesOnAndOffAroundEachPulse() async throws {
        let path = try valueFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sleeper = RecordingSleeper(valuePath: path)
        try await SwitchedHapticDriver(motor: try ValueFileMotor(valuePath: path), sleeper: sleeper).play(.pattern(for: .timeSensitive))
        let timeline = sleeper.timeline
        #expect(timeline.map(\.value) == ["1", "0", "1"])
        #expect(timeline.map(\.duration) == [.milliseconds(120), .milliseconds(100), .milliseconds(120)])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "0")
    }

    @Test func theMotorIsOffWhenPlayingIsCancelled() async throws {
        let path = try valueFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sleeper = RecordingSleeper(valuePath: path, failAfter: 0)
        await #expect(throws: CancellationError.self) {
            try await SwitchedHapticDriver(motor: try ValueFileMotor(valuePath: path), sleeper: sleeper).play(.pattern(for: .critical))
        }
        #expect(sleeper.timeline.map(\.value) == ["1"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "0")
    }

    @Test func aMotorLeftRunningIsSwitchedOffAtStart() throws {
        let path = try valueFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("1".utf8).write(to: URL(fileURLWithPath: path))
        _ = try ValueFileMotor(valuePath: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "0")
    }

    @Test func aValueFileThatCannotBeWrittenIsFoundAtStart() throws {
        let error = #expect(throws: DeviceError.self) { try ValueFileMotor(valuePath: "/nonexistent/leds/relay-vibrator/brightness") }
        #expect(error?.cause.call == "open(/nonexistent/leds/relay-vibrator/brightness)")
        #expect(error?.description.contains("the vibrator /nonexistent/leds/relay-vibrator/brightness does not exist") == true)
        let readOnly = DeviceError(
            role: "the vibrator", path: "/sys/class/leds/relay-vibrator/brightness", group: "relay", listing: "ls /sys/class/leds",
            cause: SystemError(call: "open(/sys/class/leds/relay-vibrator/brightness)", code: EROFS), accessAdvice: "ReadWritePaths=…")
        #expect(readOnly.description.hasSuffix("; ReadWritePaths=…"))
    }

    @Test func theLogDriverDescribesThePattern() async throws {
        let lines = Mutex<[String]>([])
        let driver = LogHapticDriver { line in lines.withLock { $0.append(line) } }
        try await driver.play(.pattern(for: .timeSensitive))
        try await driver.play(.pattern(for: .passive))
        #expect(lines.withLock { $0 } == ["haptic: 120ms on, 100ms off, 120ms on"])
    }
}

/// The force-feedback motor, one level down: what the kernel answers for files that are not a
/// rumble device (the real one, a uinput device with FF_RUMBLE, is driven in `make systemd`).
@Suite struct ForceFeedbackMotorTests {
    @Test func aMissingDeviceOrOneThatCannotRumbleNamesTheFix() throws {
        let missing = #expect(throws: DeviceError.self) { try ForceFeedbackMotor(path: "/dev/input/by-path/no-such-vibrator") }
        #expect(missing?.description.contains("the vibrator /dev/input/by-path/no-such-vibrator does not exist") == true, "\(String(describing: missing))")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-not-a-vibrator-\(UUID().uuidString)").path
        try Data().write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let notADevice = #expect(throws: DeviceError.self) { try ForceFeedbackMotor(path: path) }
        #expect(notADevice?.description.hasPrefix("\(path) is not the vibrator relay-wearable can use") == true, "\(String(describing: notADevice))")
    }

    @Test func patternsDescribeThemselves() {
        #expect(VibrationPattern.pattern(for: .critical).description == "600ms on, 250ms off, 600ms on, 250ms off, 600ms on")
        #expect(VibrationPattern.none.description == "none")
    }
}
