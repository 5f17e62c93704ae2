import CRelayShim
import Glibc
public import RelaySystem

/// A motor the kernel presents as a force-feedback input device (`FF_RUMBLE`): the
/// `gpio-vibrator` and `pwm-vibrator` drivers make one of a coin motor on a GPIO or a PWM
/// line. One rumble effect is uploaded when the device is opened; each pulse starts it and
/// stops it by writing `EV_FF` events, the evdev write interface.
public final class ForceFeedbackMotor: VibrationMotor {
    /// The device's path.
    public let path: String
    private let descriptor: Int32
    private let effect: Int32

    /// The longest the effect plays if nothing stops it (a process that dies mid-pulse; the
    /// kernel also stops a closed descriptor's effects): longer than any pattern's pulse.
    static let longestPulseMilliseconds: UInt16 = 1000

    /// Opens the device for writing and uploads the effect; a device that is missing, may not
    /// be opened, or cannot rumble is an error that names the fix.
    public init(path: String) throws(DeviceError) {
        let failure = { (cause: SystemError) in
            DeviceError(
                role: "the vibrator", path: path, group: "input", listing: "grep -B6 'EV=.*20000' /proc/bus/input/devices", cause: cause,
                accessAdvice: "the packaged service reads input devices only: let it write this one with `systemctl edit relay-wearable`, "
                    + "[Service] DeviceAllow=\(path) rw (Hardware/README.md)")
        }
        let descriptor: Int32
        do {
            descriptor = try SystemError.retrying("open(\(path))") { open(path, O_RDWR | O_CLOEXEC) }
        } catch {
            throw failure(error)
        }
        do throws(SystemError) {
            let rumbles = try SystemError.retrying("ioctl(\(path), EVIOCGBIT(EV_FF))") { relay_ff_can_rumble(descriptor) }
            guard rumbles == 1 else { throw SystemError(call: "ioctl(\(path), EVIOCGBIT(EV_FF)): no FF_RUMBLE", code: ENOTTY) }
            effect = try SystemError.retrying("ioctl(\(path), EVIOCSFF)") {
                relay_ff_upload_rumble(descriptor, Self.longestPulseMilliseconds)
            }
        } catch {
            close(descriptor)
            throw failure(error)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// `the force-feedback device PATH`.
    public var description: String { "the force-feedback device \(path)" }

    /// Starts or stops the uploaded effect.
    public func run(_ running: Bool) throws {
        let (descriptor, effect) = (descriptor, effect)
        _ = try SystemError.retrying("write(\(path), EV_FF)") { relay_ff_play(descriptor, effect, running ? 1 : 0) }
    }
}
