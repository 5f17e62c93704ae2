import Glibc
import RelayInput
import Testing

/// A pipe whose write end plays the kernel: tests write `struct input_event` records into it.
final class EventPipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32
    let layout: InputEventLayout

    init(layout: InputEventLayout = .native) throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
        self.layout = layout
    }

    deinit {
        close(readEnd)
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Writes raw bytes, all of them.
    func write(_ bytes: [UInt8]) {
        let written = bytes.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "short write to the test pipe")
    }

    /// A key event followed by `SYN_REPORT`, as the kernel reports one key change.
    func key(_ code: UInt16, _ value: Int32) {
        write(layout.encode(InputEvent(seconds: 1_700_000_000, microseconds: 5, type: InputEvent.key, code: code, value: value))
              + layout.encode(InputEvent(type: InputEvent.synchronization, code: InputEvent.synReport, value: 0)))
    }

    /// Closes the write end: the reader sees the end of the stream.
    func closeWriter() {
        close(writeEnd)
        writeEnd = -1
    }
}
