import Foundation
import Glibc
import RelayInput
import Testing
import RelaySystem

/// The real reader, on a pipe carrying `struct input_event` records.
@Suite struct EvdevReaderTests {
    @Test func keysWrittenIntoAPipeAreRead() throws {
        let pipe = try EventPipe()
        let reader = EvdevReader(descriptors: [pipe.readEnd])
        pipe.key(108, 1)
        pipe.key(108, 0)
        pipe.key(28, 1)
        #expect(try reader.read(timeoutMilliseconds: 1000) == [
            KeyEvent(key: .down, phase: .press, code: 108), KeyEvent(key: .down, phase: .release, code: 108),
            KeyEvent(key: .select, phase: .press, code: 28),
        ])
        #expect(try reader.read(timeoutMilliseconds: 0) == [])
    }

    @Test func aRecordSplitAcrossWritesIsReadWhole() throws {
        let pipe = try EventPipe()
        let reader = EvdevReader(descriptors: [pipe.readEnd])
        let record = pipe.layout.encode(InputEvent(type: InputEvent.key, code: 103, value: 1))
        pipe.write(Array(record.prefix(7)))
        #expect(try reader.read(timeoutMilliseconds: 1000) == [])
        pipe.write(Array(record.dropFirst(7)))
        #expect(try reader.read(timeoutMilliseconds: 1000) == [KeyEvent(key: .up, phase: .press, code: 103)])
    }

    @Test func severalSourcesAreReadTogether() throws {
        let buttons = try EventPipe(), keyboard = try EventPipe()
        let reader = EvdevReader(descriptors: [buttons.readEnd, keyboard.readEnd])
        buttons.key(103, 1)
        keyboard.key(1, 1)
        let keys = try reader.read(timeoutMilliseconds: 1000)
        #expect(Set(keys) == [KeyEvent(key: .up, phase: .press, code: 103), KeyEvent(key: .back, phase: .press, code: 1)])
    }

    @Test func theEndOfEveryStreamIsReported() throws {
        let pipe = try EventPipe()
        let reader = EvdevReader(descriptors: [pipe.readEnd])
        pipe.key(28, 1)
        pipe.closeWriter()
        #expect(try reader.read(timeoutMilliseconds: 1000).map(\.key) == [.select])
        #expect(reader.isAtEnd)
        #expect(try reader.read(timeoutMilliseconds: -1) == [])
    }

    /// One source ending (a keyboard unplugged) leaves the others read, and is no longer among
    /// the descriptors an event loop polls, where it would be readable for ever.
    @Test func aSourceThatEndsLeavesTheOthersAndIsNoLongerPolled() throws {
        let buttons = try EventPipe(), keyboard = try EventPipe()
        let reader = EvdevReader(descriptors: [buttons.readEnd, keyboard.readEnd])
        keyboard.closeWriter()
        #expect(try reader.read(timeoutMilliseconds: 1000) == [])
        #expect(reader.descriptors == [buttons.readEnd] && !reader.isAtEnd)
        buttons.key(108, 1)
        #expect(try reader.read(timeoutMilliseconds: 1000).map(\.key) == [.down])
        // Descriptors the caller owns are not reopened or reported: only devices opened by path are.
        reader.reopenLost()
        #expect(reader.takeChanges().isEmpty && reader.descriptors == [buttons.readEnd])
        #expect(EvdevReader.DeviceChange.lost(path: "/dev/input/relay-keys", cause: SystemError(call: "read(/dev/input/relay-keys)", code: ENODEV)).description
            .hasPrefix("the key device /dev/input/relay-keys went away (read(/dev/input/relay-keys): "))
    }

    @Test func aFileThatIsNoInputDeviceIsRefusedWhenGrabbed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-not-a-device-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: DeviceError.self) { try EvdevReader(paths: [path]) }
        #expect(error?.cause.code == ENOTTY && error?.cause.call == "ioctl(\(path), EVIOCGRAB)")
        #expect(error?.description.hasPrefix("\(path) is not the key device relay-wearable can use") == true)
    }

    @Test func aPipeHasNoDeviceNameAndAMissingDeviceNamesTheCall() throws {
        let pipe = try EventPipe()
        #expect(EvdevReader.deviceName(of: pipe.readEnd) == nil)
        let error = #expect(throws: DeviceError.self) { try EvdevReader(paths: ["/nonexistent/event7"]) }
        #expect(error?.cause.code == ENOENT)
        #expect(
            error?.description
                == "the key device /nonexistent/event7 does not exist (open(/nonexistent/event7): No such file or directory (errno 2)): "
                + "its driver is not loaded, or it has another name (ls -l /dev/input/by-path, cat /proc/bus/input/devices; "
                + "Hardware/README.md has the overlays)")
    }
}
