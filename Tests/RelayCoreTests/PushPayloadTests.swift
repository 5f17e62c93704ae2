import Foundation
import RelayCore
import RelayExamples
import Testing

@Suite struct PushPayloadTests {
    @Test func theNewVideoPayloadFromTheSlides() throws {
        let payload = try PushPayload.parse(SeedExamples.newVideoPayload)
        #expect(payload.mutableContent)
        #expect(!payload.contentAvailable)
        #expect(payload.content.title == "New Video")
        #expect(payload.content.body == "John Appleseed posted a new video")
        #expect(payload.content.categoryIdentifier == "video-category")
        #expect(payload.content.sound == .default)
        #expect(payload.content.userInfo == [
            "type": "video",
            "video-url": "https://www.example.com/media/myvideo.m4a",
            "video-location": "Skate Park, SF",
            "video-user": "John Appleseed",
        ])
    }

    @Test func alertAsAStringIsTheBody() throws {
        let payload = try PushPayload.parse(Data(#"{"aps":{"alert":"Hello","badge":2,"thread-id":"t","interruption-level":"passive"}}"#.utf8))
        #expect(payload.content.body == "Hello")
        #expect(payload.content.badge == 2)
        #expect(payload.content.threadIdentifier == "t")
        #expect(payload.content.interruptionLevel == .passive)
    }

    @Test func backgroundPushIsSilent() throws {
        let payload = try PushPayload.parse(Data(#"{"aps":{"content-available":1},"sync":"inbox"}"#.utf8))
        #expect(payload.contentAvailable)
        #expect(payload.isSilent)
    }

    @Test(arguments: [
        (#"not json"#, "push payload is not valid JSON"),
        (#"[1]"#, "push payload key \"(root)\" must be an object"),
        (#"{"alert":"x"}"#, "push payload has no \"aps\" dictionary; put the alert, badge and sound inside \"aps\""),
        (#"{"aps":{"alert":5}}"#, "push payload key \"aps.alert\" must be a string or an object, not a number"),
        (#"{"aps":{"alert":{"title":["x"]}}}"#, "push payload key \"aps.alert.title\" must be a string, not an array"),
        (#"{"aps":{"badge":-1}}"#, "push payload key \"aps.badge\" must be a whole number of 0 or more"),
        (#"{"aps":{"interruption-level":"loud"}}"#, "push payload key \"aps.interruption-level\" must be passive, active, time-sensitive or critical"),
    ])
    func badPayloadsGiveClearErrors(json: String, message: String) {
        #expect {
            _ = try PushPayload.parse(Data(json.utf8))
        } throws: { error in
            (error as? PushPayloadError)?.description == message
        }
    }

    @Test func oversizedPayloadIsRefusedBeforeParsing() {
        let huge = Data(("{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 5000) + "\"}}").utf8)
        #expect(throws: PushPayloadError.tooLarge(bytes: huge.count)) { try PushPayload.parse(huge) }
    }
}
