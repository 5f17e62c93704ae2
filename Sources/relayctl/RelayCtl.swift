import ArgumentParser
import RelayCore

/// `relayctl`: pairs, inspects and drives the Relay agents, and checks notification files.
@main
struct RelayCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relayctl",
        abstract: "Control Relay, the phone-to-wearable notification bridge.",
        discussion: """
            relayctl talks to relay-phone and relay-wearable through their control sockets, \
            speaks relay-phone's own D-Bus API as an app would (notify, schedule, pending, remove, \
            categories), and works offline on notification files: it validates requests, \
            categories and push payloads and prints when scheduled requests will fire.
            """,
        version: "relayctl \(RelayVersion.string)",
        subcommands: [
            CheckCommand.self, ExamplesCommand.self, StatusCommand.self, PressCommand.self, VibrateCommand.self, ScreenshotCommand.self,
            DeliveredCommand.self, InvokeCommand.self, ReplyCommand.self, DismissCommand.self, LockCommand.self,
            UnlockCommand.self, NotifyCommand.self, ScheduleCommand.self, PendingCommand.self, RemoveCommand.self,
            CategoriesCommand.self, PairCommand.self, UnpairCommand.self,
            NotificationsCommand.self, RespondCommand.self, ReconnectCommand.self, DoctorCommand.self, DoNotDisturbCommand.self, MutesCommand.self, QuietHoursCommand.self, RepliesCommand.self, FilterCommand.self, WhyCommand.self, HistoryCommand.self,
        ])
}
