import RelayCore
import RelayExamples
import Testing

@Suite struct HiddenPreviewTests {
    @Test func thaiVacationReadsOneImageAndOneComment() {
        let preview = HiddenPreviews.preview(
            of: SeedExamples.thaiVacationThread.map(\.content), categories: SeedExamples.categories, language: "en")
        #expect(preview == HiddenPreview(title: "Thai Vacation", subtitle: nil, body: "1 Image & 1 Comment"))
    }

    @Test func countsAreCoalescedPerCategory() {
        let preview = HiddenPreviews.preview(
            of: SeedExamples.workThread.map(\.content), categories: SeedExamples.categories, language: "en")
        #expect(preview.body == "3 Comments")
        #expect(preview.title == "Work")
    }

    @Test func withoutACategoryPlaceholderTheDefaultApplies() {
        let one = HiddenPreviews.preview(of: [NotificationContent(title: "Secret")], categories: [:], language: "en")
        #expect(one == HiddenPreview(title: nil, subtitle: nil, body: "Notification"))
        let two = HiddenPreviews.preview(of: [NotificationContent(), NotificationContent()], categories: [:], language: "en")
        #expect(two.body == "2 Notifications")
    }

    @Test func aPlainPlaceholderIgnoresTheCount() {
        let category = NotificationCategory(identifier: "c", hiddenPreviewsBodyPlaceholder: PluralizedText("Comment"))
        let content = NotificationContent(categoryIdentifier: "c")
        #expect(HiddenPreviews.preview(of: [content, content], categories: ["c": category], language: "en").body == "Comment")
    }

    @Test func titleShowsOnlyWhenEveryCategoryAllowsIt() {
        let open = NotificationCategory(identifier: "open", options: [.hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle])
        let closed = NotificationCategory(identifier: "closed")
        let a = NotificationContent(title: "T", subtitle: "S", categoryIdentifier: "open")
        let b = NotificationContent(title: "T", subtitle: "S", categoryIdentifier: "closed")
        let both = HiddenPreviews.preview(of: [a], categories: ["open": open, "closed": closed], language: "en")
        #expect(both.title == "T" && both.subtitle == "S")
        let mixed = HiddenPreviews.preview(of: [a, b], categories: ["open": open, "closed": closed], language: "en")
        #expect(mixed.title == nil && mixed.subtitle == nil)
        #expect(mixed.body == "Notification & Notification")
    }

    @Test func threeCategoriesJoinWithCommasAndAnAmpersand() {
        let contents = ["image-category", "comment-category", "video-category", "comment-category"].map {
            NotificationContent(categoryIdentifier: $0)
        }
        let preview = HiddenPreviews.preview(of: contents, categories: SeedExamples.categories, language: "en")
        #expect(preview.body == "1 Image, 2 Comments & 1 Video")
    }
}

@Suite struct PluralRuleTests {
    @Test(arguments: [
        ("en", 0, PluralCategory.other), ("en", 1, .one), ("en", 2, .other),
        ("fr", 0, .one), ("fr", 1, .one), ("fr", 2, .other),
        ("ru", 1, .one), ("ru", 3, .few), ("ru", 5, .many), ("ru", 11, .many), ("ru", 21, .one), ("ru", 22, .few), ("ru", 112, .many),
        ("pl", 1, .one), ("pl", 22, .few), ("pl", 21, .many), ("pl", 12, .many),
        ("cs", 3, .few), ("cs", 5, .other),
        ("ar", 0, .zero), ("ar", 1, .one), ("ar", 2, .two), ("ar", 3, .few), ("ar", 11, .many), ("ar", 100, .other), ("ar", 103, .few),
        ("he", 2, .two), ("ja", 1, .other), ("pt-BR", 0, .one), ("de_DE", 1, .one), ("xx", 1, .one),
    ])
    func cldrCategories(language: String, count: Int, expected: PluralCategory) {
        #expect(PluralRules(language: language).category(for: count) == expected)
    }

    @Test func formattingSubstitutesTheCount() {
        let russian = PluralizedText(forms: [.one: "%u комментарий", .few: "%u комментария", .many: "%u комментариев", .other: "%u комментария"])
        #expect(russian?.format(count: 1, language: "ru") == "1 комментарий")
        #expect(russian?.format(count: 3, language: "ru") == "3 комментария")
        #expect(russian?.format(count: 5, language: "ru") == "5 комментариев")
        #expect(PluralizedText("100%% of %lu done %q").format(count: 7, language: "en") == "100% of 7 done %q")
    }
}
