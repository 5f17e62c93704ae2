import Glibc
import RelaySystem
import Testing

/// A device that cannot be opened says what fixes it.
@Suite struct DeviceErrorTests {
    private func error(_ code: Int32) -> DeviceError {
        DeviceError(
            role: "the key device", path: "/dev/input/event3", group: "input", listing: "ls -l /dev/input/by-path",
            cause: SystemError(call: "open(/dev/input/event3)", code: code))
    }

    @Test func permissionNamesTheGroupAndHowToJoinIt() {
        let text = error(EACCES).description
        #expect(text.hasPrefix("relay-wearable may not open the key device /dev/input/event3 (open(/dev/input/event3): Permission denied (errno 13))"))
        #expect(text.contains("add its user to group input (sudo usermod -aG input $USER, then log in again)"))
    }

    @Test func aMissingDeviceNamesTheDriverAndWhereToLook() {
        let text = error(ENOENT).description
        #expect(text.contains("does not exist") && text.contains("its driver is not loaded") && text.contains("ls -l /dev/input/by-path"))
        #expect(error(EIO).description == "cannot open the key device /dev/input/event3: open(/dev/input/event3): Input/output error (errno 5)")
    }
}
