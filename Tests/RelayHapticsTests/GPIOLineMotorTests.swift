import Foundation
import Glibc
import RelayHaptics
import RelaySystem
import Synchronization
import Testing

/// GPIO lines as libgpiod's API gives them, one level below the motor: no kernel this project
/// runs on (the VM's included) has a GPIO simulator (gpio-sim, gpio-mockup), so the chip is a
/// fake that keeps each line's level and who holds it, as the kernel does.
final class FakeGPIOChip: GPIOLines {
    struct Request: Equatable {
        var chip: String
        var offset: UInt32
        var consumer: String
    }

    let path: String
    let lines: UInt32
    /// Lines a driver already holds, and its name.
    let held: [UInt32: String]
    /// Each line's level as it was driven, in order.
    private let state = Mutex<(requests: [Request], levels: [Bool], refuseAfter: Int?)>(([], [], nil))

    init(path: String = "/dev/gpiochip0", lines: UInt32 = 54, held: [UInt32: String] = [:]) {
        self.path = path
        self.lines = lines
        self.held = held
    }

    var requests: [Request] { state.withLock { $0.requests } }
    var levels: [Bool] { state.withLock { $0.levels } }
    /// The line refuses every change after `count` more.
    func refuse(after count: Int) { state.withLock { $0.refuseAfter = $0.levels.count + count } }

    func output(chip: String, offset: UInt32, consumer: String) throws(GPIOLineError) -> any GPIOOutputLine {
        guard chip == path else { throw .chip(path: chip, SystemError(call: "gpiod_chip_open(\(chip))", code: ENOENT)) }
        guard offset < lines else { throw .noSuchLine(chip: chip, offset: offset, lines: lines) }
        if let holder = held[offset] { throw .busy(chip: chip, offset: offset, consumer: holder) }
        state.withLock {
            $0.requests.append(Request(chip: chip, offset: offset, consumer: consumer))
            $0.levels.append(false)  // requested low, as the real request does
        }
        return Line(chip: self)
    }

    private struct Line: GPIOOutputLine {
        let chip: FakeGPIOChip
        func set(high: Bool) throws(SystemError) {
            let refused = chip.state.withLock { state -> Bool in
                if let limit = state.refuseAfter, state.levels.count >= limit { return true }
                state.levels.append(high)
                return false
            }
            if refused { throw SystemError(call: "gpiod_line_set_value", code: EIO) }
        }
    }
}

@Suite struct GPIOLineMotorTests {
    @Test func theLineIsRequestedLowAsRelaysAndEachPulseDrivesItHighThenLow() async throws {
        let chip = FakeGPIOChip()
        let motor = try GPIOLineMotor(chip: "/dev/gpiochip0", offset: 13, lines: chip)
        #expect(chip.requests == [.init(chip: "/dev/gpiochip0", offset: 13, consumer: "relay-vibrator")])
        #expect(motor.description == "GPIO line 13 of /dev/gpiochip0")
        try await SwitchedHapticDriver(motor: motor, sleeper: ImmediateSleeper()).play(.pattern(for: .timeSensitive))
        // Requested low; two pulses; left low.
        #expect(chip.levels == [false, true, false, true, false])
    }

    @Test func aLineThatRefusesToGoLowIsAnErrorThePlayerReports() async throws {
        let chip = FakeGPIOChip()
        let motor = try GPIOLineMotor(chip: "/dev/gpiochip0", offset: 13, lines: chip)
        chip.refuse(after: 1)
        await #expect(throws: SystemError.self) {
            try await SwitchedHapticDriver(motor: motor, sleeper: ImmediateSleeper()).play(.pattern(for: .active))
        }
        #expect(chip.levels == [false, true])
    }

    @Test func aLineThatIsMissingOrHeldSaysWhatToDo() {
        let chip = FakeGPIOChip(held: [18: "gpio-vibrator"])
        let held = #expect(throws: GPIOLineError.self) { try GPIOLineMotor(chip: "/dev/gpiochip0", offset: 18, lines: chip) }
        #expect(held?.description == "line 18 of /dev/gpiochip0 is held by \"gpio-vibrator\" (gpioinfo /dev/gpiochip0 shows it): "
            + "remove the overlay or stop the program that claims it, or wire the motor to a free line")
        let beyond = #expect(throws: GPIOLineError.self) { try GPIOLineMotor(chip: "/dev/gpiochip0", offset: 60, lines: chip) }
        #expect(beyond?.description == "/dev/gpiochip0 has no line 60; its lines are 0 to 53 (gpioinfo /dev/gpiochip0 lists them)")
        #expect(chip.requests.isEmpty)
    }

    /// The real libgpiod, on what this machine has: no chip at all, and a character device
    /// that is not a GPIO chip.
    @Test func libgpiodRefusesAMissingChipAndADeviceThatIsNoChipWithTheFix() {
        let missing = #expect(throws: GPIOLineError.self) { try Libgpiod().output(chip: "/dev/gpiochip-none", offset: 0, consumer: "test") }
        #expect(missing?.description.hasPrefix("the vibrator's GPIO chip /dev/gpiochip-none does not exist") == true, "\(String(describing: missing))")
        let notAChip = #expect(throws: GPIOLineError.self) { try Libgpiod().output(chip: "/dev/null", offset: 0, consumer: "test") }
        #expect(notAChip?.description.hasPrefix("/dev/null is not a GPIO chip relay-wearable can use") == true, "\(String(describing: notAChip))")
    }
}

/// Pulses without waiting.
struct ImmediateSleeper: HapticSleeper {
    func sleep(for duration: Duration) async throws {}
}
