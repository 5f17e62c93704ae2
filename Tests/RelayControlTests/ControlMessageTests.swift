import Foundation
import RelayControl
import Testing

/// The JSON form of control messages (Docs/CONTROL.md).
@Suite struct ControlMessageTests {
    @Test func responseIsOneFlatObject() throws {
        let response = ControlResponse.success(["screen": .string("list"), "width": .int(240)])
        let text = String(decoding: try ControlJSON.encode(response), as: UTF8.self)
        #expect(text == #"{"ok":true,"screen":"list","width":240}"#)
        #expect(try ControlJSON.decode(ControlResponse.self, from: Data(text.utf8)) == response)
    }

    @Test func failureCarriesItsError() throws {
        let text = String(decoding: try ControlJSON.encode(ControlResponse.failure("no")), as: UTF8.self)
        #expect(text == #"{"error":"no","ok":false}"#)
    }

    @Test func requestLeavesOutWhatItDoesNotUse() throws {
        let text = String(decoding: try ControlJSON.encode(ControlRequest(command: "screenshot", path: "/tmp/x.png")), as: UTF8.self)
        #expect(text == #"{"command":"screenshot","path":"/tmp/x.png"}"#)
    }
}
