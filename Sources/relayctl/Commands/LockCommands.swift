import ArgumentParser
import RelayControl

/// `relayctl lock [--auto]`: overrides relay-phone's lock state, or returns it to its sources.
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Make relay-phone count the phone as locked (mirroring on), whatever logind and the screensavers say.",
        discussion: "With --auto, clear the override instead: logind and the screensavers decide again.")

    @Flag(help: "Clear the manual override (as `relayctl unlock --auto` does).")
    var auto = false

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        try LockOverride.send(auto ? nil : true, control, json: json)
    }
}

/// `relayctl unlock [--auto]`: the opposite override; `--auto` clears it, as `lock --auto` does.
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Make relay-phone count the phone as unlocked (mirroring off), whatever logind and the screensavers say.",
        discussion: "With --auto, clear the override instead: logind and the screensavers decide again.")

    @Flag(help: "Clear the manual override (as `relayctl lock --auto` does).")
    var auto = false

    @Flag(help: "Print the agent's JSON response as it came.")
    var json = false

    @OptionGroup var control: ControlOptions

    func run() throws {
        try LockOverride.send(auto ? nil : false, control, json: json)
    }
}

/// What both commands share: the request, and one line with the resulting state.
enum LockOverride {
    static func send(_ locked: Bool?, _ control: ControlOptions, json: Bool) throws {
        let response = try control.send(PhoneRequest.lockOverride(locked: locked), json: json)
        if json {
            print(String(decoding: try ControlJSON.encode(response), as: UTF8.self))
            return
        }
        let locked = response.values["locked"]?.description == "1"
        let source = response.values["lockSource"]?.description ?? "none"
        print("\(locked ? "locked" : "unlocked") (\(source))")
    }
}
