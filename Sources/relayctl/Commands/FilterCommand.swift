import ArgumentParser
import Foundation
import RelayControl

/// `relayctl filter list|reload|test`: the phone's filter rules (Docs/POLICY.md, "Filter rules").
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Show or reload relay-phone's filter rules, or see what they and the policy decide for a notification.",
        subcommands: [List.self, Reload.self, Test.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the rules in force, in the order they are tried.")

        @Flag(help: "Print the agent's JSON response as it came.")
        var json = false

        @OptionGroup var control: ControlOptions

        func run() throws {
            try FilterCommand.printRules(control.send(PhoneRequest.filter(.list), json: json), json: json)
        }
    }

    struct Reload: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the rules file again (as SIGHUP does); a file with a mistake is refused and the rules in force stay.")

        @Flag(help: "Print the agent's JSON response as it came.")
        var json = false

        @OptionGroup var control: ControlOptions

        func run() throws {
            try FilterCommand.printRules(control.send(PhoneRequest.filter(.reload), json: json), json: json)
        }
    }

    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a notification through the rules and the phone's policy, as notify-send would post it, without posting it.",
            discussion: """
                Prints the decision (drop, silent, alert or break-through), its reason and the rule that made it. \
                The wearable then keeps its own quiet hours and gap between vibrations. --notification takes \
                the notification as JSON instead: {"app": …, "title": …, "body": …, "category": …, "level": …, "thread": …}.
                """)

        @Option(name: [.customShort("a"), .customLong("app-name")], help: "The app's name.")
        var app: String?

        @Option(name: [.customShort("u"), .long], help: "low, normal or critical, as notify-send takes it.")
        var urgency: String?

        @Option(help: "passive, active, time-sensitive or critical (instead of --urgency).")
        var level: String?

        @Option(name: [.customShort("c"), .long], help: "The freedesktop category (email.arrived).")
        var category: String?

        @Option(help: "The thread's identifier.")
        var thread: String?

        @Option(help: "The notification as JSON, instead of the other options.")
        var notification: String?

        @Argument(help: "The summary (title), then the body.")
        var text: [String] = []

        @Flag(help: "Print the agent's JSON response as it came.")
        var json = false

        @OptionGroup var control: ControlOptions

        func validate() throws {
            if notification != nil, app != nil || urgency != nil || level != nil || category != nil || thread != nil || !text.isEmpty {
                throw ValidationError("give --notification or the notify-send-like options, not both")
            }
            if notification == nil, text.isEmpty { throw ValidationError("give the notification's summary (and body), as notify-send takes them") }
            if text.count > 2 { throw ValidationError("give the summary and the body, no more") }
            if urgency != nil, level != nil { throw ValidationError("give --urgency or --level, not both") }
            if let urgency, Self.levels[urgency] == nil { throw ValidationError("--urgency \(urgency): give low, normal or critical") }
        }

        static let levels = ["low": "passive", "normal": "active", "critical": "critical"]

        func run() throws {
            let probe: NotificationProbe
            if let notification {
                do {
                    probe = try JSONDecoder().decode(NotificationProbe.self, from: Data(notification.utf8))
                } catch {
                    throw ValidationError(
                        "--notification is not a notification: \(error); write {\"app\": …, \"title\": …, \"body\": …, \"category\": …, \"level\": …, \"thread\": …}")
                }
            } else {
                probe = NotificationProbe(
                    app: app ?? "notify-send", title: text[0], body: text.count > 1 ? text[1] : "", category: category ?? "",
                    level: level ?? urgency.flatMap { Self.levels[$0] } ?? "active", thread: thread ?? "")
            }
            let response = try control.send(PhoneRequest.filter(.test(probe)), json: json)
            if json {
                print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
                return
            }
            let rule = response.values["rule"]?.description ?? ""
            print("\(response.values["outcome"]?.description ?? "?"): \(response.values["reason"]?.description ?? "?")")
            print("rule: \(rule.isEmpty ? "none matched" : rule)")
            print("on the phone: \(response.values["phone"]?.description ?? "?")")
        }
    }

    /// The rules, one per line, and the file's problem when it was refused.
    static func printRules(_ response: ControlResponse, json: Bool) throws {
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        print("rules file: \(response.values["filterRulesFile"]?.description ?? "?")")
        if case .list(let rules)? = response.values["filterRules"] {
            if rules.isEmpty { print("no rules") }
            for rule in rules { print("  \(rule.description)") }
        }
        if let problem = response.values["filterRulesProblem"] { print("refused at the last reading (the rules above stay):\n\(problem)") }
    }
}
