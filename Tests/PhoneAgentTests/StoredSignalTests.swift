import Foundation
import PhoneAgent
import Testing

struct StoredSignalTests {
    @Test func everySignalComesBackAsItWasStored() {
        let signals: [NotificationSignal] = [
            .actionInvoked(id: 3, key: "accept"),
            .replied(id: 4, text: "On my way 🚲"),
            .closed(id: 5, reason: .dismissedByUser),
            .response(RichResponse(appID: "org.example.Chat", identifier: "m-1", action: "reply", text: "Yes", destination: ":1.42")),
            .response(RichResponse(appID: "org.example.Chat", identifier: "m-2", action: "dismiss", destination: nil)),
        ]
        #expect(signals.map { NotificationSignal(stored: $0.stored) } == signals)
    }

    @Test func whatThisVersionCannotReadIsNil() {
        #expect(NotificationSignal(stored: Data("{\"kind\":\"somethingNew\"}".utf8)) == nil)
        #expect(NotificationSignal(stored: Data("{\"kind\":\"closed\",\"id\":1,\"reason\":99}".utf8)) == nil)
        #expect(NotificationSignal(stored: Data("not json".utf8)) == nil)
    }
}
