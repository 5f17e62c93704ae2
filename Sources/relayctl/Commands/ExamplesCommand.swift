import ArgumentParser
import Foundation
import RelayCore
import RelayExamples

/// `relayctl examples`: runs the model on the seed documents' examples.
struct ExamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "examples",
        abstract: "Show the seed examples: categories, threads, hidden previews, the push payload and schedules.",
        discussion: """
            The examples come from WWDC 2017 session 708 and the CocoaConf 2016 slides: the \
            "Thai Vacation" thread, the "New Video" push with Like and Comment, and scheduled \
            requests that cross daylight-saving changes. --json prints them in the model's JSON form.
            """)

    @OptionGroup var schedule: ScheduleOptions

    @Flag(help: "Print the examples as JSON instead of text.")
    var json = false

    func run() throws {
        let newVideo = try SeedExamples.newVideoRequest()
        if json {
            try printJSON(newVideo: newVideo)
            return
        }
        print("Categories")
        for category in SeedExamples.categories.values.sorted(by: { $0.identifier < $1.identifier }) {
            print("  \(category.identifier): \(describe(category))")
        }

        print("\n\"Thai Vacation\" thread, newest first")
        for request in SeedExamples.thaiVacationThread {
            print("  \(line(request.content))  [\(request.content.categoryIdentifier)]")
        }
        let hidden = HiddenPreviews.preview(
            of: SeedExamples.thaiVacationThread.map(\.content), categories: SeedExamples.categories, language: "en")
        print("  with previews hidden: \(hidden.title ?? "(no title)") — \(hidden.body)")

        print("\n\"New Video\" push payload")
        let payload = try PushPayload.parse(SeedExamples.newVideoPayload)
        print("  alert: \(line(payload.content))")
        print("  mutable-content: \(payload.mutableContent ? "yes (a service extension may rewrite it)" : "no")")
        for (key, value) in payload.content.userInfo.sorted(by: { $0.key < $1.key }) {
            print("  user info \(key): \(value.stringValue ?? "\(value)")")
        }
        print("  after the service extension: \(line(newVideo.content))")
        let actions = SeedExamples.categories[newVideo.content.categoryIdentifier]?.actions ?? []
        print("  actions: " + actions.map(describe).joined(separator: ", "))

        let zoneName = schedule.timeZone.identifier
        print("\nSchedules in \(zoneName) after \(schedule.format(schedule.start))")
        for request in SeedExamples.scheduled {
            print("  \(request.identifier): \(schedule.describeSchedule(of: request))")
        }
    }

    private func line(_ content: NotificationContent) -> String {
        [content.title, content.subtitle].filter { !$0.isEmpty }.joined(separator: " · ") + " — " + content.body
    }

    private func describe(_ action: NotificationAction) -> String {
        guard let input = action.textInput else { return action.title }
        return "\(action.title) (text: \(input.suggestedReplies.joined(separator: " | ")))"
    }

    private func describe(_ category: NotificationCategory) -> String {
        var parts: [String] = []
        if !category.actions.isEmpty { parts.append("actions " + category.actions.map(\.title).joined(separator: ", ")) }
        if let placeholder = category.hiddenPreviewsBodyPlaceholder {
            parts.append("hidden: \"\(placeholder.format(count: 1, language: "en"))\" / \"\(placeholder.format(count: 2, language: "en"))\"")
        }
        if category.options.contains(.hiddenPreviewsShowTitle) { parts.append("title stays visible") }
        if category.options.contains(.customDismissAction) { parts.append("reports dismissals") }
        return parts.joined(separator: "; ")
    }

    private func printJSON(newVideo: NotificationRequest) throws {
        struct Scheduled: Encodable {
            let request: NotificationRequest
            let nextFireDates: [Date]
        }
        struct Output: Encodable {
            let categories: [NotificationCategory]
            let requests: [NotificationRequest]
            let scheduled: [Scheduled]
        }
        let scheduled = SeedExamples.scheduled.map { request in
            let dates = request.trigger.flatMap {
                try? TriggerSchedule(trigger: $0, scheduledAt: schedule.start, timeZone: schedule.timeZone)
            }?.fireDates(after: schedule.start, limit: schedule.count) ?? []
            return Scheduled(request: request, nextFireDates: dates)
        }
        let output = Output(
            categories: SeedExamples.categories.values.sorted { $0.identifier < $1.identifier },
            requests: SeedExamples.thaiVacationThread + SeedExamples.workThread
                + [newVideo, SeedExamples.meetingInvite, SeedExamples.cyrillicMessage, SeedExamples.emojiMessage],
            scheduled: scheduled)
        print(String(decoding: try RelayJSON.encode(output, pretty: true), as: UTF8.self))
    }
}
