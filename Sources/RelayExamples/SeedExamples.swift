public import Foundation
public import RelayCore

/// The examples from the seed documents (WWDC 2017 session 708 and the CocoaConf 2016
/// slides), built from the model. Tests use them as fixtures; the demo plays them.
public enum SeedExamples {
    /// The app identifier the social-media examples are posted under.
    public static let socialApp = "com.example.social"
    /// The app identifier of the calendar examples.
    public static let calendarApp = "com.example.calendar"

    // MARK: Categories

    /// Comments: hidden previews read "1 Comment" / "2 Comments" and keep the thread title.
    public static let commentCategory = NotificationCategory(
        identifier: "comment-category",
        hiddenPreviewsBodyPlaceholder: PluralizedText(one: "%u Comment", other: "%u Comments"),
        options: [.hiddenPreviewsShowTitle])

    /// Images: hidden previews read "1 Image" / "2 Images" and keep the thread title.
    public static let imageCategory = NotificationCategory(
        identifier: "image-category",
        hiddenPreviewsBodyPlaceholder: PluralizedText(one: "%u Image", other: "%u Images"),
        options: [.hiddenPreviewsShowTitle])

    /// The "New Video" post's actions: Like, Comment (text input) and Reactions.
    public static let videoCategory = NotificationCategory(
        identifier: "video-category",
        actions: [
            NotificationAction(identifier: "like-action", title: "Like"),
            NotificationAction(
                identifier: "comment-action", title: "Comment",
                textInput: TextInputOptions(
                    buttonTitle: "Post", placeholder: "Add a comment",
                    suggestedReplies: ["Nice!", "Looks fun 😎", "Where is that?"])),
            NotificationAction(
                identifier: "reactions-action", title: "Reactions",
                textInput: TextInputOptions(buttonTitle: "React", suggestedReplies: ["👍", "❤️", "😂", "😮"])),
        ],
        hiddenPreviewsBodyPlaceholder: PluralizedText(one: "%u Video", other: "%u Videos"))

    /// A meeting invitation answered with Accept or Decline.
    public static let meetingCategory = NotificationCategory(
        identifier: "meeting-invite",
        actions: [
            NotificationAction(identifier: "accept", title: "Accept"),
            NotificationAction(identifier: "decline", title: "Decline", options: [.destructive]),
        ],
        options: [.customDismissAction])

    /// Every category above, by identifier.
    public static let categories: [String: NotificationCategory] = Dictionary(
        uniqueKeysWithValues: [commentCategory, imageCategory, videoCategory, meetingCategory].map {
            ($0.identifier, $0)
        })

    // MARK: The "Thai Vacation" thread

    /// John's comment, posted first.
    public static let thaiVacationComment = NotificationRequest(
        identifier: "thai-vacation-comment-1",
        content: NotificationContent(
            title: "Thai Vacation", subtitle: "John Appleseed", body: "Whoa, what a sunset!",
            sound: .default, categoryIdentifier: commentCategory.identifier, threadIdentifier: "thai-vacation"))

    /// Jane's photo, posted second.
    public static let thaiVacationImage = NotificationRequest(
        identifier: "thai-vacation-image-1",
        content: NotificationContent(
            title: "Thai Vacation", subtitle: "Jane Doe", body: "Check out this photo!", sound: .default,
            categoryIdentifier: imageCategory.identifier, threadIdentifier: "thai-vacation",
            attachments: [NotificationAttachment(identifier: "photo", url: "/usr/share/relay/examples/sunset.png", type: "image/png")]))

    /// The thread, newest first: hidden, it reads "Thai Vacation — 1 Image & 1 Comment".
    public static let thaiVacationThread = [thaiVacationImage, thaiVacationComment]

    /// The "Work" thread from the same slides.
    public static let workThread = [
        ("work-tom", "Tom", "Is the meeting still on?"),
        ("work-beth", "Beth", "Rescheduled it to 2pm"),
        ("work-harry", "Harry", "I'll be there"),
    ].map { identifier, sender, body in
        NotificationRequest(
            identifier: identifier,
            content: NotificationContent(
                title: "Work", subtitle: sender, body: body, categoryIdentifier: commentCategory.identifier,
                threadIdentifier: "work"))
    }

    // MARK: The "New Video" push

    /// The push payload from the slides, with the alert text the screenshots show and the
    /// category that offers Like and Comment.
    public static let newVideoPayload = Data(
        """
        {
          "aps": {
            "alert": {"title": "New Video", "body": "John Appleseed posted a new video"},
            "category": "video-category",
            "sound": "default",
            "mutable-content": 1
          },
          "type": "video",
          "video-url": "https://www.example.com/media/myvideo.m4a",
          "video-location": "Skate Park, SF",
          "video-user": "John Appleseed"
        }
        """.utf8)

    /// The request the phone posts for the payload, once a service extension has added the
    /// subtitle and the caption the content extension's screenshot shows.
    public static func newVideoRequest() throws -> NotificationRequest {
        var content = try PushPayload.parse(newVideoPayload).content
        content.subtitle = "John Appleseed · Skate Park, SF"
        content.body = "Just another Saturday with my friends 😎"
        return NotificationRequest(identifier: "new-video-1", content: content, trigger: .push)
    }

    // MARK: Other fixtures

    /// A meeting invitation that `notify-send --wait` will wait on in the demo.
    public static let meetingInvite = NotificationRequest(
        identifier: "meeting-1",
        content: NotificationContent(
            title: "Meeting", subtitle: "Design review, 14:00", body: "Join?",
            categoryIdentifier: meetingCategory.identifier, interruptionLevel: .timeSensitive))

    /// A body in Cyrillic.
    public static let cyrillicMessage = NotificationRequest(
        identifier: "cyrillic-1",
        content: NotificationContent(title: "Анна", body: "Встречаемся в семь у фонтана. Не опаздывай!"))

    /// A body with emoji, including a flag and a family that are single grapheme clusters.
    public static let emojiMessage = NotificationRequest(
        identifier: "emoji-1",
        content: NotificationContent(title: "Party 🎉", body: "See you there 🇹🇭 👨‍👩‍👧 🎂🎈"))

    /// A body far too long for a 240×240 screen.
    public static let longMessage = NotificationRequest(
        identifier: "long-1",
        content: NotificationContent(
            title: "Release notes",
            body: String(
                repeating: "Relay mirrors notifications from the phone to the wearable while the phone is locked. ",
                count: 12)))

    // MARK: Scheduled requests

    /// Scheduled requests that exercise every trigger rule the model has.
    public static let scheduled: [NotificationRequest] = [
        NotificationRequest(
            identifier: "stretch", content: NotificationContent(title: "Stretch", body: "Stand up for a minute"),
            trigger: .timeInterval(seconds: 3600, repeats: true)),
        NotificationRequest(
            identifier: "tea", content: NotificationContent(title: "Tea", body: "Your tea is ready"),
            trigger: .timeInterval(seconds: 240, repeats: false)),
        NotificationRequest(
            identifier: "stand-up", content: NotificationContent(title: "Stand-up", body: "Daily stand-up in 5 minutes"),
            trigger: .calendar(CalendarComponents(hour: 9, minute: 25), repeats: true)),
        NotificationRequest(
            identifier: "review", content: NotificationContent(title: "Weekly review", body: "Fridays at 16:00"),
            trigger: .calendar(CalendarComponents(weekday: 6, hour: 16), repeats: true)),
        NotificationRequest(
            identifier: "rent", content: NotificationContent(title: "Rent", body: "Due on the 31st"),
            trigger: .calendar(CalendarComponents(day: 31, hour: 9), repeats: true)),
        NotificationRequest(
            identifier: "backup", content: NotificationContent(title: "Backup", body: "Nightly backup at 02:30"),
            trigger: .calendar(CalendarComponents(hour: 2, minute: 30), repeats: true)),
        NotificationRequest(
            identifier: "night-check", content: NotificationContent(title: "Night check", body: "At 01:30"),
            trigger: .calendar(CalendarComponents(hour: 1, minute: 30), repeats: true)),
    ]
}
