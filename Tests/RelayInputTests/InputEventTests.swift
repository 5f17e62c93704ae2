import RelayInput
import Testing

@Suite struct InputEventTests {
    @Test func recordsAre24BytesOn64BitAnd16On32Bit() {
        #expect(InputEventLayout(wordSize: 8).recordSize == 24)
        #expect(InputEventLayout(wordSize: 4).recordSize == 16)
        #expect(InputEventLayout.native.recordSize == MemoryLayout<Int>.size * 2 + 8)
    }

    @Test(arguments: [4, 8])
    func recordsRoundTrip(wordSize: Int) {
        let layout = InputEventLayout(wordSize: wordSize)
        let event = InputEvent(seconds: 1_700_000_123, microseconds: 999_999, type: 1, code: 108, value: 2)
        let bytes = layout.encode(event)
        #expect(bytes.count == layout.recordSize)
        var decoder = InputEventDecoder(layout: layout)
        #expect(bytes.withUnsafeBytes { decoder.decode($0) } == [event])
    }

    @Test func aPartialRecordWaitsForItsRest() {
        let layout = InputEventLayout(wordSize: 8)
        let first = InputEvent(type: 1, code: 103, value: 1), second = InputEvent(type: 1, code: 103, value: 0)
        let bytes = layout.encode(first) + layout.encode(second)
        var decoder = InputEventDecoder(layout: layout)
        #expect(bytes[0..<10].withUnsafeBytes { decoder.decode($0) } == [])
        #expect(decoder.pendingByteCount == 10)
        #expect(bytes[10..<30].withUnsafeBytes { decoder.decode($0) } == [first])
        #expect(bytes[30...].withUnsafeBytes { decoder.decode($0) } == [second])
        #expect(decoder.pendingByteCount == 0)
    }

    @Test func keysArePressedRepeatedAndReleasedThroughTheMap() {
        var interpreter = KeyEventInterpreter()
        let events = [
            InputEvent(type: InputEvent.key, code: 108, value: 1),
            InputEvent(type: InputEvent.key, code: 108, value: 2),
            InputEvent(type: InputEvent.key, code: 108, value: 0),
            InputEvent(type: InputEvent.key, code: 30, value: 1),  // KEY_A: not mapped
            InputEvent(type: 2, code: 0, value: 5),  // EV_REL: ignored
            InputEvent(type: InputEvent.key, code: 14, value: 1),
        ]
        #expect(interpreter.interpret(events) == [
            KeyEvent(key: .down, phase: .press, code: 108), KeyEvent(key: .down, phase: .autorepeat, code: 108),
            KeyEvent(key: .down, phase: .release, code: 108), KeyEvent(key: .back, phase: .press, code: 14),
        ])
        #expect(interpreter.interpret(events).filter(\.triggers).count == 3)
    }

    @Test func aCustomMapReplacesTheStandardOne() {
        var interpreter = KeyEventInterpreter(keyMap: KeyMap(codes: [256: .select]))  // BTN_0
        #expect(interpreter.interpret([InputEvent(type: 1, code: 256, value: 1), InputEvent(type: 1, code: 28, value: 1)])
                == [KeyEvent(key: .select, phase: .press, code: 256)])
    }

    @Test func droppedEventsReleaseHeldKeysAndSkipToTheNextReport() {
        var interpreter = KeyEventInterpreter()
        _ = interpreter.interpret([InputEvent(type: 1, code: 103, value: 1)])
        let keys = interpreter.interpret([
            InputEvent(type: 0, code: InputEvent.synDropped, value: 0),
            InputEvent(type: 1, code: 108, value: 1),  // part of the damaged report
            InputEvent(type: 0, code: InputEvent.synReport, value: 0),
            InputEvent(type: 1, code: 28, value: 1),
        ])
        #expect(keys == [KeyEvent(key: .up, phase: .release, code: 103), KeyEvent(key: .select, phase: .press, code: 28)])
    }
}
