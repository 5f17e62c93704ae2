import Foundation
import RelayCore
import RelayExamples
import RelayWire
import Testing

/// The link budget: a notification costs at most its text bytes plus 64 on the link
/// (frame header, Noise tag, envelope and identifiers included).
@Suite struct LinkCostTests {
    static func examples() throws -> [NotificationRequest] {
        SeedExamples.thaiVacationThread + SeedExamples.workThread
            + [try SeedExamples.newVideoRequest(), SeedExamples.meetingInvite, SeedExamples.cyrillicMessage, SeedExamples.emojiMessage]
    }

    @Test func everySeedNotificationFitsTheBudget() throws {
        for request in try Self.examples() {
            let cost = try LinkCost.upsertBytesOnLink(request, key: 4_321, revision: 1, seq: 1_234, ack: 567)
            let text = LinkCost.textBytes(request.content)
            #expect(cost <= text + 64, "\(request.identifier): \(cost) > \(text) + 64")
        }
    }
}
