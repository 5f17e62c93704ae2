import Foundation
import RelayCore
import RelayExamples
import RelayWire
import SwiftProtobuf
import Testing

@Suite struct MessageTests {
    /// One envelope of every body kind, with every field of its message set.
    static func everyEnvelope() throws -> [Relay_V1_Envelope] {
        let video = try SeedExamples.newVideoRequest()
        let content = Relay_V1_Content(video.content, attachments: [
            Relay_V1_AttachmentRef.with {
                $0.identifier = "preview"; $0.type = "image/png"; $0.sha256 = Data(repeating: 0xAB, count: 32); $0.size = 12_345
            },
        ])
        let bodies: [Relay_V1_Envelope.OneOf_Body] = [
            .hello(.with {
                $0.role = .phone; $0.agentVersion = RelayVersion.string; $0.deviceName = "Pi phone"
                $0.receivedThrough = 41; $0.logEpoch = 7
                $0.capabilities = .with {
                    $0.screenWidth = 240; $0.screenHeight = 240; $0.colorDepth = 16; $0.maxTitleBytes = 256
                    $0.maxBodyBytes = 4096; $0.fonts = ["DejaVu Sans"]; $0.maxAttachmentBytes = 65_536
                    $0.features = ["schedule", "attachments"]
                }
            }),
            .change(.with { $0.upsert = .with {
                $0.key = 4_321; $0.revision = 3; $0.appKey = 2
                $0.content = content; $0.mayAlert = true; $0.deliveredAt = 1_812_345_678
            } }),
            .change(.with { $0.remove = .with { $0.key = 77; $0.revision = 4; $0.reason = .dismissedOnWearable } }),
            .change(.with { $0.appInfo = .with { $0.key = 2; $0.name = "Social" } }),
            .change(.with { $0.categoryUpsert = .with {
                $0.appKey = 2
                $0.category = Relay_V1_Category(SeedExamples.videoCategory, key: 3)
            } }),
            .change(.with { $0.categoryRemove = .with { $0.key = 3 } }),
            .change(.with { $0.scheduleUpsert = .with {
                $0.key = 90; $0.revision = 1; $0.content = Relay_V1_Content(SeedExamples.scheduled[5].content)
                $0.trigger = (try? Relay_V1_Trigger(SeedExamples.scheduled[5].trigger ?? .push)) ?? Relay_V1_Trigger()
                $0.scheduledAt = 1_800_000_000; $0.timeZone = "Europe/Berlin"
            } }),
            .change(.with { $0.scheduleRemove = .with { $0.key = 90 } }),
            .change(.with { $0.snapshotBegin = .with { $0.epoch = 9 } }),
            .change(.with { $0.snapshotEnd = .with { $0.epoch = 9 } }),
            .change(.with { $0.settings = .with { $0.hidePreviews = true; $0.language = "ru"; $0.silent = true } }),
            .event(.with { $0.at = 5; $0.response = Relay_V1_Response(NotificationResponse(
                notificationIdentifier: "4321", action: .custom("comment-action"), userText: "Nice!", date: Date())) }),
            .event(.with { $0.at = 6; $0.alerted = .with { $0.notificationKey = 4_321; $0.revision = 2; $0.alerted = false; $0.reason = "update in place" } }),
            .event(.with { $0.at = 7; $0.firedLocally = .with { $0.scheduleKey = 90; $0.fireDate = 1_800_000_000; $0.alerted = true } }),
            .heartbeat(.with { $0.id = 99; $0.reply = true }),
            .attachmentChunk(.with { $0.sha256 = Data(repeating: 1, count: 32); $0.offset = 4096; $0.totalSize = 12_345; $0.data = Data(repeating: 2, count: 4096) }),
            .attachmentRequest(.with { $0.sha256 = Data(repeating: 1, count: 32); $0.offset = 8192 }),
            .error(.with { $0.code = .protocolViolation; $0.message = "replayed frame" }),
        ]
        return bodies.enumerated().map { index, body in
            Relay_V1_Envelope.with { $0.seq = UInt64(index); $0.ack = UInt64(index * 2); $0.body = body }
        }
    }

    @Test func everyMessageRoundTrips() throws {
        for envelope in try Self.everyEnvelope() {
            let bytes: Data = try envelope.serializedBytes()
            let decoded = try Relay_V1_Envelope(serializedBytes: bytes)
            #expect(decoded == envelope)
        }
    }

    @Test func unknownFieldsFromANewerPeerAreKept() throws {
        var bytes: Data = try Relay_V1_Heartbeat.with { $0.id = 1 }.serializedBytes()
        bytes.append(contentsOf: [0xF8, 0x07, 0x01])  // field 127, varint 1
        let decoded = try Relay_V1_Heartbeat(serializedBytes: bytes)
        #expect(decoded.id == 1)
        #expect(!decoded.unknownFields.data.isEmpty)
    }

    @Test func contentCategoriesTriggersAndResponsesMapBackToTheModel() throws {
        for request in SeedExamples.thaiVacationThread + SeedExamples.workThread + [try SeedExamples.newVideoRequest()] {
            // On the wearable, identifiers are the phone's keys; user info stays on the phone.
            var expected = request.content
            expected.userInfo = [:]
            expected.attachments = []
            expected.categoryIdentifier = "5"
            expected.threadIdentifier = request.content.threadIdentifier.isEmpty ? "" : "9"
            var content = request.content
            content.attachments = []
            let wire = Relay_V1_Content(content, categoryKey: 5, threadKey: request.content.threadIdentifier.isEmpty ? 0 : 9)
            #expect(NotificationContent(wire) == expected)
        }
        for category in SeedExamples.categories.values {
            var expected = category
            expected.identifier = "3"
            #expect(NotificationCategory(Relay_V1_Category(category, key: 3)) == expected)
        }
        for request in SeedExamples.scheduled {
            let trigger = try #require(request.trigger)
            #expect(try NotificationTrigger(Relay_V1_Trigger(trigger)) == trigger)
        }
        #expect(throws: WireMappingError.notScheduled(kind: "push")) { try Relay_V1_Trigger(.push) }
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let reply = NotificationResponse(notificationIdentifier: "4321", action: .custom("comment-action"), userText: "", date: date)
        #expect(NotificationResponse(Relay_V1_Response(reply), date: date) == reply)
        let open = NotificationResponse(notificationIdentifier: "17", action: .default, date: date)
        #expect(NotificationResponse(Relay_V1_Response(open), date: date) == open)
    }

    @Test func soundsSurviveTheirCompactForm() {
        for sound in [nil, NotificationSound.default, .named("message-new-instant")] {
            #expect(NotificationContent(Relay_V1_Content(NotificationContent(title: "x", sound: sound))).sound == sound)
        }
    }

    @Test func attachmentsTravelAsContentHashes() {
        var content = NotificationContent(title: "photo")
        content.attachments = [NotificationAttachment(identifier: "p", url: "/tmp/p.png", type: "image/png")]
        let wire = Relay_V1_Content(content, attachments: [.with { $0.identifier = "p"; $0.type = "image/png"; $0.sha256 = Data([0xDE, 0xAD]) }])
        #expect(NotificationContent(wire).attachments == [NotificationAttachment(identifier: "p", url: "sha256:dead", type: "image/png")])
    }

    @Test func wirePluralTextWithoutOtherStillShowsSomething() {
        let wire = Relay_V1_PluralText.with { $0.forms = ["one": "%u Comment", "bogus": "x"] }
        #expect(PluralizedText(wire).format(count: 5, language: "en") == "5 Comment")
    }
}
