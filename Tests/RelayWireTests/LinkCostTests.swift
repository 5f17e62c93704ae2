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

/// Anything the model accepts fits in one frame, so no valid change can wedge a log.
@Suite struct FrameFitTests {
    private func frameBytes(_ body: Relay_V1_Envelope.OneOf_Body) throws -> Int {
        let envelope = Relay_V1_Envelope.with { $0.seq = .max; $0.ack = .max; $0.body = body }
        let payload: Data = try envelope.serializedBytes()
        return payload.count + LinkCost.noiseTagBytes
    }

    private static func text(_ bytes: Int) -> String { String(repeating: "ж", count: bytes / 2) }

    @Test func aNotificationAtTheModelsLimitsFits() throws {
        var content = NotificationContent(
            title: Self.text(ModelLimits.titleBytes), subtitle: Self.text(ModelLimits.titleBytes),
            body: Self.text(ModelLimits.bodyBytes), badge: Int(Int32.max), sound: .named(Self.text(ModelLimits.identifierBytes)),
            interruptionLevel: .critical, summaryArgument: Self.text(ModelLimits.titleBytes), summaryArgumentCount: Int(Int32.max))
        content.userInfo[NotificationContent.freedesktopCategoryKey] = .string(Self.text(64))
        try content.validate(as: "content")
        let attachments = (0..<ModelLimits.attachments).map { index in
            Relay_V1_AttachmentRef.with {
                $0.identifier = String(index) + Self.text(ModelLimits.identifierBytes - 2)
                $0.type = "image/png"; $0.sha256 = Data(count: 32); $0.size = .max
            }
        }
        let upsert = Relay_V1_Envelope.OneOf_Body.change(.with { $0.upsert = .with {
            $0.key = .max; $0.revision = .max; $0.appKey = .max; $0.noAlertReason = Self.text(256); $0.deliveredAt = .max
            $0.alwaysAlertRule = Self.text(256)
            $0.content = Relay_V1_Content(content, categoryKey: .max, threadKey: .max, attachments: attachments)
        } })
        let bytes = try frameBytes(upsert)
        #expect(bytes <= FrameFormat.defaultMaximumLength, "\(bytes) bytes")
    }

    /// However many mutes there are, the shared wishes travel in changes that each fit.
    @Test func sharedWishesAtTheirLimitsFitSplitIntoChanges() throws {
        var preferences = SharedPreferences()
        let far = Date(timeIntervalSince1970: 253_402_300_799)
        _ = preferences.setDoNotDisturb(.on(until: far), at: far)
        let zone = try #require(TimeZone(identifier: "America/Argentina/ComodRivadavia"))
        _ = preferences.setQuietHours(QuietHours(start: 1439, end: 1438, weekdays: Set(1...7), timeZone: zone), at: far)
        for index in 0..<(3 * Relay_V1_Preferences.maximumMutes + 5) {
            let app = String(index) + Self.text(Relay_V1_Preferences.maximumAppBytes - 4)
            _ = preferences.mute(.thread(app: app, thread: String(UInt32.max)), until: far, at: far)
        }
        let parts = Relay_V1_Preferences.split(preferences)
        #expect(parts.count == 4 && parts.allSatisfy { $0.mutes.count <= Relay_V1_Preferences.maximumMutes && $0.problem == nil })
        for part in parts {
            let bytes = try frameBytes(.change(.with { $0.preferences = part }))
            #expect(bytes <= FrameFormat.defaultMaximumLength, "\(bytes) bytes")
            let event = try frameBytes(.event(.with { $0.at = .max; $0.preferences = part }))
            #expect(event <= FrameFormat.defaultMaximumLength, "\(event) bytes")
        }
        var received = SharedPreferences()
        for part in parts { received.merge(part.preferences) }
        #expect(received == preferences)
    }

    @Test func aCategoryAtTheModelsLimitsFits() throws {
        let longest = PluralizedText(forms: Dictionary(uniqueKeysWithValues: PluralCategory.allCases.map { ($0, Self.text(ModelLimits.placeholderBytes)) }))
        let actions = (0..<ModelLimits.actionsPerCategory).map { index in
            NotificationAction(
                identifier: String(index) + Self.text(ModelLimits.actionIdentifierBytes - 2), title: Self.text(ModelLimits.actionTextBytes),
                options: [.authenticationRequired, .destructive, .foreground],
                textInput: TextInputOptions(
                    buttonTitle: Self.text(ModelLimits.actionTextBytes), placeholder: Self.text(ModelLimits.actionTextBytes),
                    suggestedReplies: Array(repeating: Self.text(ModelLimits.actionTextBytes), count: ModelLimits.suggestedReplies)))
        }
        let category = NotificationCategory(
            identifier: "c", actions: actions, hiddenPreviewsBodyPlaceholder: longest, categorySummaryFormat: longest,
            options: [.customDismissAction, .hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle])
        try category.validate(as: "category")
        let bytes = try frameBytes(.change(.with { $0.categoryUpsert = .with { $0.appKey = .max; $0.category = Relay_V1_Category(category, key: .max) } }))
        #expect(bytes <= FrameFormat.defaultMaximumLength, "\(bytes) bytes")
    }
}
