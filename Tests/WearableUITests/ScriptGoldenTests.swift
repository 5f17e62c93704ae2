import Foundation
import RelayCore
import RelayText
import Testing
import WearableUI

/// Text in every script the wearable is asked to show, with the fonts the bootstrap installs
/// (`FontChain.everyScript`: DejaVu, Noto per script, Noto Color Emoji): shaped, ordered and
/// broken as a reader of that script expects. Each picture was looked at before it was kept.
@Suite struct ScriptGoldenTests {
    private func longLook(_ name: String, app: String = "Messages", title: String, body: String, scroll downs: Int = 0) throws {
        var machine = try makeMachine(fonts: .everyScript)
        let request = NotificationRequest(identifier: name, content: NotificationContent(title: title, body: body))
        machine.feed(.upsert(delivered(request, app: app), alert: true))
        machine.press(.select)
        for _ in 0..<downs { machine.press(.down) }
        try GoldenImage.check(name, machine)
    }

    /// Right to left, aligned right; the numbers and the Latin name keep their own order.
    @Test func hebrewWithNumbersAndLatin() throws {
        try longLook("script-hebrew", title: "שלום עולם", body: "הפגישה עם Dana ב־14:30 בחדר 204, אל תאחרו!")
    }

    /// Letters joined as Arabic is written, right to left.
    @Test func arabicJoined() throws {
        try longLook("script-arabic", title: "مرحبا بالعالم", body: "نلتقي في الساعة السابعة عند النافورة. لا تتأخر!")
    }

    /// Conjuncts (क्ष, त्र) and vowel signs placed by the font's rules.
    @Test func devanagariConjuncts() throws {
        try longLook("script-devanagari", title: "नमस्ते", body: "क्षमा करें, मैं ट्रेन में हूँ। शाम सात बजे मिलते हैं।")
    }

    /// Thai has no spaces between words: lines break where ICU's dictionary finds words.
    @Test func thaiBrokenAtWords() throws {
        try longLook("script-thai", title: "สวัสดีครับ", body: "พรุ่งนี้เราจะไปเที่ยวทะเลกันตอนเช้าอย่าลืมเอาร่มมาด้วยนะ")
    }

    /// A family, flags and skin tones each one colour picture, as Noto Color Emoji draws them.
    @Test func colourEmojiSequences() throws {
        try longLook("script-emoji", title: "Party 🎉", body: "See you there 🇹🇭 🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿\n👨‍👩‍👧 👍🏽 👋🏿 ❤️ 😂")
    }

    /// A long right-to-left body: its lines aligned right, and the short look's title cut with
    /// "…" at its logical end, on the left.
    @Test func longRightToLeftBodyTruncated() throws {
        var machine = try makeMachine(fonts: .everyScript)
        let body = String(repeating: "זוהי הודעה ארוכה מאוד שנשלחה מהטלפון כדי לבדוק את קיצור הטקסט. ", count: 6)
        let request = NotificationRequest(
            identifier: "rtl-long", content: NotificationContent(title: "הודעה ארוכה מאוד עם כותרת שלא נכנסת בשורה אחת", body: body))
        machine.feed(.upsert(delivered(request, app: "Messages"), alert: true))
        try GoldenImage.check("script-rtl-short-look", machine)
        machine.press(.back, .down)
        try GoldenImage.check("script-rtl-list", machine)
    }
}

/// The screens in a language written right to left: their own words in it, and mirrored — the
/// link dot, the list rows' app edge, counts and unread dots, and the header change sides.
@Suite struct RightToLeftLocaleGoldenTests {
    private func seed(_ machine: inout UIStateMachine) {
        let thread = (1...3).map { index in
            NotificationRequest(
                identifier: "dana-\(index)",
                content: NotificationContent(title: "דנה", body: ["מגיעה בעוד עשר דקות", "איפה אתם?", "אני בדרך"][index - 1], threadIdentifier: "dana"))
        }
        machine.handle(thread.enumerated().map { .upsert(delivered($1, app: "Messages", minutesAgo: Double(9 - $0)), alert: false) } + [
            .upsert(delivered(NotificationRequest(
                identifier: "mail-1", content: NotificationContent(title: "Invoice 2041", body: "Your order has shipped")),
                app: "Mail", minutesAgo: 30), alert: false),
            .upsert(delivered(NotificationRequest(
                identifier: "news-1", content: NotificationContent(title: "مرحبا بالعالم", body: "نلتقي في الساعة السابعة")),
                app: "News", minutesAgo: 45), alert: false),
        ])
    }

    /// Hebrew on a 12-hour clock: the period left of the time, the date in Hebrew.
    @Test func hebrewWatchFaceAndList() throws {
        var machine = try makeMachine(fonts: .everyScript, language: "he_IL.UTF-8", twentyFourHourClock: false)
        seed(&machine)
        try GoldenImage.check("rtl-hebrew-idle", machine)
        machine.press(.select)
        try GoldenImage.check("rtl-hebrew-list", machine)
    }

    /// Arabic out of range with do not disturb on.
    @Test func arabicWatchFaceAndList() throws {
        var machine = try makeMachine(fonts: .everyScript, language: "ar")
        seed(&machine)
        machine.handle([.link(.outOfRange), .alertPolicy(AlertPolicy(doNotDisturb: DoNotDisturb(source: .manual)))])
        try GoldenImage.check("rtl-arabic-idle", machine)
        machine.press(.select)
        try GoldenImage.check("rtl-arabic-list", machine)
    }
}
