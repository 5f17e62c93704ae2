import Foundation
import RelayCore
import RelayDBus
import RelayFreedesktop
import RelayFreedesktopDBus
import Testing

@Suite struct NotifyCallTests {
    private func arguments(
        summary: String = "Meeting", body: String = "Join?", actions: [String] = ["yes", "Yes", "no", "No"],
        hints: [String: DBusValue] = [:], timeout: Int32 = -1
    ) -> [DBusValue] {
        [
            .string("calendar"), .uint32(0), .string("x-office-calendar"), .string(summary), .string(body),
            .array(elementSignature: .string, elements: actions.map { .string($0) }),
            .dictionary(
                keySignature: .string, valueSignature: .variant,
                entries: hints.map { DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value)) }),
            .int32(timeout),
        ]
    }

    @Test func theMeetingInviteBecomesContentAndACategory() throws {
        let call = try NotifyCall.decode(arguments: arguments(hints: ["urgency": .byte(2), "desktop-entry": .string("org.example.Calendar")]))
        #expect(call.actions.map(\.key) == ["yes", "no"])
        let content = FreedesktopMapping.content(of: call, categoryIdentifier: "fd-1")
        #expect(content.title == "Meeting" && content.body == "Join?")
        #expect(content.interruptionLevel == .critical)
        #expect(content.userInfo["freedesktop.desktop_entry"] == .string("org.example.Calendar"))
        let category = try #require(FreedesktopMapping.category(of: call))
        #expect(category.actions.map(\.identifier) == ["yes", "no"])
        try category.validate(as: "category")
    }

    @Test func theDefaultActionIsNoButtonAndInlineReplyAsksForText() throws {
        let call = try NotifyCall.decode(arguments: arguments(
            actions: ["default", "Open", "inline-reply", "Reply"], hints: ["x-kde-reply-placeholder-text": .string("Message Anna")]))
        let category = try #require(FreedesktopMapping.category(of: call))
        #expect(category.actions.count == 1)
        #expect(category.actions[0].identifier == "inline-reply")
        #expect(category.actions[0].textInput?.placeholder == "Message Anna")
        #expect(FreedesktopMapping.category(of: try NotifyCall.decode(arguments: arguments(actions: ["default", "Open"]))) == nil)
    }

    @Test func relaysHintNamesTheLevelOverTheUrgencyAndAWrongOneIsNoted() throws {
        let timeSensitive = try NotifyCall.decode(arguments: arguments(
            hints: ["urgency": .byte(0), "x-relay-interruption-level": .string("time-sensitive"), "category": .string("im.received")]))
        let content = FreedesktopMapping.content(of: timeSensitive)
        #expect(content.interruptionLevel == .timeSensitive)
        #expect(content.freedesktopCategory == "im.received")
        let wrong = try NotifyCall.decode(arguments: arguments(hints: ["urgency": .byte(2), "x-relay-interruption-level": .string("urgent")]))
        #expect(FreedesktopMapping.content(of: wrong).interruptionLevel == .critical)
        #expect(wrong.notes.contains("hint x-relay-interruption-level: expected passive, active, time-sensitive or critical; using the urgency"))
    }

    @Test func wrongSignaturesAreInvalidArgs() {
        #expect {
            _ = try NotifyCall.decode(arguments: [.string("only one")])
        } throws: { error in
            (error as? DBusError)?.name == .invalidArgs
        }
        var bad = arguments()
        bad[1] = .int32(5)
        #expect(throws: DBusError.self) { try NotifyCall.decode(arguments: bad) }
    }

    /// A long body of words is cut between two of them and ends in "…"; one with no spaces
    /// between characters; what the log says is what is kept.
    @Test func aLongBodyIsShortenedAtAWordWithAnEllipsis() throws {
        let words = String(repeating: "lorem ipsum ", count: 1000)
        let call = try NotifyCall.decode(arguments: arguments(body: words))
        let body = FreedesktopMapping.content(of: call).body
        #expect(body.hasSuffix("ipsum…") || body.hasSuffix("lorem…"), "\(body.suffix(20))")
        #expect(body.utf8.count <= ModelLimits.bodyBytes)
        let note = try #require(call.notes.first { $0.hasPrefix("body: ") })
        #expect(note == "body: 12000 bytes sent; the first \(body.utf8.count) bytes of its text kept, cut at a word with …")

        let flags = String(repeating: "🇩🇪", count: 2000)
        let cut = FreedesktopMapping.content(of: try NotifyCall.decode(arguments: arguments(body: flags))).body
        #expect(cut.hasSuffix("🇩🇪…") && cut.utf8.count <= ModelLimits.bodyBytes, "a flag is never split")
        #expect("short".shortened(toUTF8Bytes: 10) == "short")
    }

    /// Eleven buttons and a click at the end: the click and the first ten are kept, so that each
    /// one the phone keeps is on the wrist too.
    @Test func theClickAndTheButtonsTheWearableShowsAreKept() throws {
        let sent = (1...11).flatMap { ["b\($0)", "Button \($0)"] } + ["default", "Open"]
        let call = try NotifyCall.decode(arguments: arguments(actions: sent))
        #expect(call.actions.map(\.key) == (1...10).map { "b\($0)" } + ["default"])
        #expect(call.notes.contains { $0.hasPrefix("actions: 12 sent; kept 11") }, "\(call.notes)")
        let category = try #require(FreedesktopMapping.category(of: call))
        #expect(category.actions.map(\.identifier) == (1...10).map { "b\($0)" })
    }

    @Test func hugeBodiesAndThousandsOfActionsAreClampedWithANote() throws {
        let megabyte = String(repeating: "ж", count: 512 * 1024)
        let actions = (0..<5000).flatMap { ["a\($0)", "Action \($0)"] }
        let call = try NotifyCall.decode(arguments: arguments(body: megabyte, actions: actions))
        #expect(call.actions.count == ModelLimits.actionsPerCategory, "no click among them: the buttons the wearable shows")
        #expect(call.notes.contains { $0.hasPrefix("actions: 5000 sent") })
        let content = FreedesktopMapping.content(of: call)
        #expect(call.notes.contains { $0.hasPrefix("body: 1048576 bytes sent; the first \(content.body.utf8.count) bytes of its text kept") }, "\(call.notes)")
        #expect(content.body.utf8.count <= ModelLimits.bodyBytes)
        try content.validate(as: "content")
        let category = try #require(FreedesktopMapping.category(of: call))
        try category.validate(as: "category")
    }

    @Test func oddActionsAndLaxHintTypesAreToleratedWithNotes() throws {
        let call = try NotifyCall.decode(arguments: arguments(
            actions: ["yes", "Yes", "orphan"],
            hints: ["urgency": .int32(0), "suppress-sound": .int32(1), "category": .int32(3), "transient": .boolean(true)]))
        #expect(call.actions.count == 1)
        #expect(call.hints.urgency == .low)
        #expect(call.hints.suppressSound && call.hints.transient)
        #expect(call.hints.category == nil)
        #expect(call.notes.contains { $0.contains("odd number") })
        #expect(call.notes.contains { $0.contains("hint category") })
        #expect(FreedesktopMapping.content(of: call).sound == nil)
        #expect(FreedesktopMapping.content(of: call).interruptionLevel == .passive)
    }

    @Test func malformedImageDataIsDroppedAndGoodImageDataKept() throws {
        func image(width: Int32, height: Int32, stride: Int32, bytes: Int) -> DBusValue {
            .structure([
                .int32(width), .int32(height), .int32(stride), .boolean(true), .int32(8), .int32(4),
                .array(elementSignature: .byte, elements: Array(repeating: .byte(0x7F), count: bytes)),
            ])
        }
        let good = try NotifyCall.decode(arguments: arguments(hints: ["image-data": image(width: 2, height: 2, stride: 8, bytes: 16)]))
        #expect(good.hints.imageData?.width == 2)
        let lying = try NotifyCall.decode(arguments: arguments(hints: ["image-data": image(width: 100, height: 100, stride: 400, bytes: 16)]))
        #expect(lying.hints.imageData == nil)
        #expect(lying.notes.contains { $0.contains("does not match 16 bytes") })
        let wrongShape = try NotifyCall.decode(arguments: arguments(hints: ["image-data": .string("nope")]))
        #expect(wrongShape.hints.imageData == nil)
        // Numbers come as any integer type (or a string): a huge stride must not overflow.
        let overflowing = try NotifyCall.decode(arguments: arguments(hints: [
            "image-data": .structure([
                .int32(1), .int32(3), .int64(.max), .boolean(true), .int32(8), .int32(4), .bytes(Array(repeating: 1, count: 16)),
            ])
        ]))
        #expect(overflowing.hints.imageData == nil)
        #expect(overflowing.notes.contains { $0.contains("does not match 16 bytes") })
        let notBytes = try NotifyCall.decode(arguments: arguments(hints: [
            "image-data": .structure([
                .int32(1), .int32(1), .int32(4), .boolean(true), .int32(8), .int32(4),
                .array(elementSignature: .byte, elements: [.byte(1), .byte(2), .int32(3), .byte(4)]),
            ])
        ]))
        #expect(notBytes.hints.imageData == nil)
        #expect(notBytes.notes.contains { $0.contains("not bytes") })

        // The specification's order decides which image counts: image-data, image_data,
        // image-path, image_path, icon_data; not the keys' sort order.
        let both = try NotifyCall.decode(arguments: arguments(hints: [
            "image-data": image(width: 2, height: 2, stride: 8, bytes: 16), "image_data": image(width: 1, height: 1, stride: 4, bytes: 4),
            "image-path": .variant(.string("/a.png")), "image_path": .variant(.string("/b.png")),
        ]))
        #expect(both.hints.imageData?.width == 2 && both.hints.imagePath == "/a.png")
        let icon = try NotifyCall.decode(arguments: arguments(hints: [
            "icon_data": image(width: 1, height: 1, stride: 4, bytes: 4), "image_path": .variant(.string("/b.png")),
        ]))
        #expect(icon.hints.imageData == nil && icon.hints.imagePath == "/b.png", "a path outranks icon_data")
        let onlyIcon = try NotifyCall.decode(arguments: arguments(hints: ["icon_data": image(width: 1, height: 1, stride: 4, bytes: 4)]))
        #expect(onlyIcon.hints.imageData?.width == 1)
    }

    @Test func expiryFollowsTheSpecWithPersistence() {
        #expect(FreedesktopMapping.expiry(milliseconds: -1) == nil)
        #expect(FreedesktopMapping.expiry(milliseconds: 0) == nil)
        #expect(FreedesktopMapping.expiry(milliseconds: 5000) == .seconds(5))
        var critical = NotificationHints()
        critical.urgency = .critical
        #expect(FreedesktopMapping.expiry(milliseconds: 5000, hints: critical) == nil, "only the user closes a critical one")
        var transient = NotificationHints()
        transient.transient = true
        #expect(FreedesktopMapping.expiry(milliseconds: -1, hints: transient) == .seconds(FreedesktopMapping.transientSeconds))
        #expect(FreedesktopMapping.expiry(milliseconds: 0, hints: transient) == nil, "0 is never, even for a transient one")
        #expect(FreedesktopMapping.expiry(milliseconds: 2000, hints: transient) == .seconds(2))
    }
}

@Suite struct BodyMarkupTests {
    @Test(arguments: [
        ("<b>Bold</b> and <i>italic</i>", "Bold and italic"),
        ("Tom &amp; Jerry &lt;3 &#x1F600; &#65;", "Tom & Jerry <3 😀 A"),
        (#"See <a href="https://example.com">the link</a>"#, "See the link"),
        (#"<img src="x.png" alt="a cat"/> purrs"#, "a cat purrs"),
        ("1 < 2 and no tag", "1 < 2 and no tag"),
        ("From: Jane <jane@example.org>", "From: Jane <jane@example.org>"),
        ("a<b, c>d and <3 > 2", "a<b, c>d and <3 > 2"),
        ("<B>Loud</B> <u>under</u><br>", "Loud under<br>"),
        ("<i>x < y</i>", "x < y"),
        ("<<b>>", "<>"),
        ("&unknown; &amp", "&unknown; &amp"),
    ])
    func markupBecomesText(markup: String, text: String) {
        #expect(BodyMarkup.plainText(markup) == text)
    }
}

@Suite struct TruncationTests {
    @Test func neverSplitsACharacter() {
        let family = "👨‍👩‍👧"  // 18 bytes, one character
        #expect("ab\(family)".truncated(toUTF8Bytes: 10) == "ab")
        #expect("ab\(family)".truncated(toUTF8Bytes: 20) == "ab\(family)")
        #expect("жжж".truncated(toUTF8Bytes: 5) == "жж")
        #expect("e\u{301}x".truncated(toUTF8Bytes: 2) == "")
    }
}
