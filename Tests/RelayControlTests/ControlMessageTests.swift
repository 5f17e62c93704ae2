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
        let text = String(decoding: try ControlJSON.encode(WearableRequest.screenshot(path: "/tmp/x.png").envelope), as: UTF8.self)
        #expect(text == #"{"command":"screenshot","path":"/tmp/x.png"}"#)
    }

    /// Every request survives its envelope, so relayctl and the agent read the same request.
    @Test func everyRequestRoundTripsThroughItsEnvelope() throws {
        let wearable: [WearableRequest] = [
            .status, .press(key: "up"), .screenshot(path: "/tmp/x.png"), .unpair, .notifications,
            .respond(id: 7, action: "dismiss", text: nil), .respond(id: 7, action: "reply", text: "on my way"),
            .why(id: 7), .history(app: nil), .history(app: "Mail"), .vibrate(level: "critical"),
            .doNotDisturb(.on(until: nil)), .doNotDisturb(.off), .doNotDisturb(.status), .mutes(.list),
            .mutes(.add(app: "Mail", thread: nil, until: nil)), .mutes(.add(app: "Chat", thread: "4", until: Date(timeIntervalSince1970: 1_795_732_200))),
            .mutes(.remove(app: "Chat", thread: "4")),
        ]
        let phone: [PhoneRequest] = [
            .status, .delivered, .invoke(id: 3, action: "default"), .reply(id: 3, text: "yes", action: nil),
            .reply(id: 3, text: "yes", action: "answer"), .dismiss(id: 3), .lockOverride(locked: true),
            .lockOverride(locked: false), .lockOverride(locked: nil), .pair, .pairConfirm(accepted: true),
            .pairConfirm(accepted: false), .unpair, .reconnect, .doNotDisturb(.status), .doNotDisturb(.off),
            .doNotDisturb(.on(until: nil)), .doNotDisturb(.on(until: Date(timeIntervalSince1970: 1_795_732_200))),
            .mutes(.list), .mutes(.add(app: "Mail", thread: "team", until: nil)), .mutes(.remove(app: "Mail", thread: nil)),
            .quietHours(.status), .quietHours(.off), .filter(.list), .filter(.reload), .why(id: 4), .history(app: nil), .history(app: "Mail"),
            .filter(.test(NotificationProbe(app: "Shop", title: "Sale", body: "50%", category: "email.arrived", level: "critical", thread: "t"))),
            .quietHours(.set(QuietHoursSpec(start: 1320, end: 420, weekdays: [2, 3, 4, 5, 6], timeZone: "Europe/Berlin"))),
            .replies(.list), .replies(.add("On my way")), .replies(.remove("👍")), .replies(.set(["Yes", "No"])), .replies(.set([])),
            .replies(.reset),
        ]
        for request in wearable {
            let line = try ControlJSON.encode(request.envelope)
            #expect(try WearableRequest(ControlJSON.decode(ControlEnvelope.self, from: line)) == request)
        }
        for request in phone {
            let line = try ControlJSON.encode(request.envelope)
            #expect(try PhoneRequest(ControlJSON.decode(ControlEnvelope.self, from: line)) == request)
        }
        // Every command each agent lists is one of its requests, and no two requests share a name.
        #expect(Set(wearable.map(\.command)) == Set(WearableRequest.commands))
        #expect(Set(phone.map(\.command)) == Set(PhoneRequest.commands))
    }

    @Test func aMissingMemberIsNamedWithWhatTheCommandNeeds() {
        #expect(throws: ControlRequestError.invalid(command: "invoke", usage: "invoke needs \"id\" and \"action\"")) {
            try PhoneRequest(ControlEnvelope(command: "invoke", id: 4))
        }
        #expect(throws: ControlRequestError.self) { try PhoneRequest(ControlEnvelope(command: "pair-confirm", action: "maybe")) }
        #expect(throws: ControlRequestError.self) { try WearableRequest(ControlEnvelope(command: "screenshot", path: "relative.png")) }
        #expect(throws: ControlRequestError.self) { try WearableRequest(ControlEnvelope(command: "respond", action: "dismiss")) }
        #expect(throws: ControlRequestError.self) { try WearableRequest(ControlEnvelope(command: "vibrate")) }
        #expect(throws: ControlRequestError.self) { try WearableRequest(ControlEnvelope(command: "mutes", action: "add")) }
        #expect(throws: ControlRequestError.self) { try PhoneRequest(ControlEnvelope(command: "mutes", action: "mute", app: "Mail")) }
        #expect(throws: ControlRequestError.self) { try PhoneRequest(ControlEnvelope(command: "replies", action: "add")) }
        #expect(throws: ControlRequestError.self) { try PhoneRequest(ControlEnvelope(command: "replies", action: "set")) }
    }

    @Test func aCommandOfTheOtherAgentIsUnknownAndTheKnownOnesAreListed() {
        let error = #expect(throws: ControlRequestError.self) { try WearableRequest(ControlEnvelope(command: "delivered")) }
        #expect(error?.description == "unknown command 'delivered'; relay-wearable knows: status, press, screenshot, unpair, notifications, respond, vibrate, why, history, dnd, mutes")
    }
}
