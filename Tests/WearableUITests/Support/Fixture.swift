import Foundation
import RelayCore
import RelayExamples
import RelayText
import Testing
import WearableUI

/// The instant every test starts at: Monday 7 June 2027, 09:41 in Cupertino.
let referenceNow = Date(timeIntervalSince1970: 1_812_386_460)

/// The zone the screens show time in.
func pacificTime() throws -> TimeZone {
    try #require(TimeZone(identifier: "America/Los_Angeles"), "time zone missing: install tzdata")
}

/// A state machine for a panel, with the seed categories, the DejaVu fonts the bootstrap
/// guarantees (so pictures are the same on every machine) and the link up.
func makeMachine(
    width: Int = 240, height: Int = 240, previewsHidden: Bool = false, blankAfter: TimeInterval? = nil, fonts: FontChain = .dejaVuSans,
    language: String = "en", twentyFourHourClock: Bool = true
) throws -> UIStateMachine {
    let typesetter = Typesetter(typeface: try Typeface(fonts))
    let layout = ScreenLayout(width: width, height: height, typesetter: typesetter)
    let state = UIState(now: referenceNow, link: .connected, categories: SeedExamples.categories, previewsHidden: previewsHidden)
    return UIStateMachine(state: state, configuration: UIConfiguration(
        timeZone: try pacificTime(), language: language, twentyFourHourClock: twentyFourHourClock, blankAfter: blankAfter), measurer: layout)
}

/// A seed request as delivered `minutesAgo` minutes before the reference time.
func delivered(_ request: NotificationRequest, app: String = "Social", minutesAgo: Double = 0) -> WearableNotification {
    WearableNotification(request: request, appName: app, date: referenceNow.addingTimeInterval(-minutesAgo * 60))
}

extension UIStateMachine {
    /// The layout `makeMachine` gives the machine as its measurer, which the renderer shares.
    var layout: ScreenLayout {
        get throws { try #require(measurer as? ScreenLayout, "the machine was not made by makeMachine") }
    }

    /// Feeds one event, returning its actions (which a test may ignore).
    @discardableResult
    mutating func feed(_ event: UIEvent) -> [UIAction] {
        handle(event)
    }

    /// Presses keys in order, returning every action they produced.
    @discardableResult
    mutating func press(_ keys: UIKey...) -> [UIAction] {
        handle(keys.map { .key($0) })
    }
}

/// The responses among actions.
func responses(_ actions: [UIAction]) -> [NotificationResponse] {
    actions.compactMap { if case .respond(let response) = $0 { response } else { nil } }
}
