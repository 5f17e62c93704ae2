import Testing
import WearableUI

/// The screens' own words: chosen by the language tag's first part, counted by its plural
/// rules, and mirrored for every language written right to left.
@Suite struct ScreenWordsTests {
    @Test(arguments: [
        ("he_IL.UTF-8", true, "התראות"), ("iw", true, "התראות"), ("ar-EG", true, "الإشعارات"),
        ("fa_IR", true, "Notifications"), ("en_GB", false, "Notifications"), ("de", false, "Notifications"), ("", false, "Notifications"),
    ])
    func languageTagChoosesWordsAndDirection(tag: String, rightToLeft: Bool, title: String) {
        let words = ScreenWords(language: tag)
        #expect(words.rightToLeft == rightToLeft)
        #expect(words.notifications == title)
    }

    @Test func countsFollowTheLanguagesPluralRules() {
        let arabic = ScreenWords(language: "ar")
        #expect(arabic.newNotifications(1) == "إشعار جديد واحد")
        #expect(arabic.newNotifications(2) == "إشعاران جديدان")
        #expect(arabic.newNotifications(5) == "5 إشعارات جديدة")
        #expect(arabic.newNotifications(11) == "11 إشعارًا جديدًا")
        #expect(arabic.newNotifications(100) == "100 إشعار جديد")
        let hebrew = ScreenWords(language: "he")
        #expect(hebrew.newNotifications(1) == "התראה חדשה אחת")
        #expect(hebrew.newNotifications(2) == "2 התראות חדשות")
        #expect(ScreenWords(language: "en").newNotifications(1) == "1 new notification")
        #expect(ScreenWords(language: "fr").newNotifications(0) == "0 new notifications", "English words, English's rules (French's count 0 as one)")
    }
}
