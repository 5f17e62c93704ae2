import Glibc
import RelayExamples
import RelayInput
import Testing
import WearableUI

/// Key events written as `struct input_event` records into a pipe, read by the real evdev reader,
/// drive the state machine. (Needs `RelayInput` among WearableUITests' dependencies.)
@Suite struct KeyPipeTests {
    @Test func downAndSelectFromThePipeLikeTheNewVideo() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let layout = InputEventLayout.native
        func key(_ code: UInt16, _ value: Int32) -> [UInt8] {
            layout.encode(InputEvent(type: InputEvent.key, code: code, value: value))
                + layout.encode(InputEvent(type: InputEvent.synchronization, code: InputEvent.synReport, value: 0))
        }
        // Select opens the long look, Down focuses Like, Enter (held: a repeat) selects it.
        let bytes = key(28, 1) + key(28, 0) + key(108, 1) + key(108, 0) + key(28, 1) + key(28, 2) + key(28, 0)
        #expect(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count)

        var machine = try makeMachine()
        machine.feed(.upsert(delivered(try SeedExamples.newVideoRequest()), alert: true))
        let reader = EvdevReader(descriptors: [fds[0]])
        let keys = try reader.read(timeoutMilliseconds: 1000).filter(\.triggers)
        let map: [InputKey: UIKey] = [.up: .up, .down: .down, .select: .select, .back: .back]
        let actions = keys.compactMap { map[$0.key] }.flatMap { machine.handle(.key($0)) }
        #expect(responses(actions).map(\.action) == [.custom("like-action")])
    }
}
