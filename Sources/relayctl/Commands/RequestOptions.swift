import ArgumentParser
import Foundation
import RelayCore

/// A request built from options, or read whole from a JSON file (`--request`) (Docs/MODEL.md), for `notify` and `schedule`.
struct RequestOptions: ParsableArguments {
    @Option(name: .customLong("id"), help: "The request's identifier; posting it again updates the notification in place. Default: a new one.")
    var identifier: String?

    @Option(help: "The title.")
    var title: String?

    @Option(help: "The subtitle, a second line under the title.")
    var subtitle: String?

    @Option(help: "The body.")
    var body: String?

    @Option(help: "The thread identifier: notifications of one thread are grouped.")
    var thread: String?

    @Option(help: "The category identifier, whose actions the notification offers (see relayctl categories).")
    var category: String?

    @Option(name: .customLong("interruption-level"), help: "passive, active, time-sensitive or critical.")
    var interruptionLevel: String?

    @Option(help: "The sound: default, or a sound name; it selects the wearable's vibration.")
    var sound: String?

    @Option(name: .customLong("attachment"), help: ArgumentHelp("A file shown with the notification (repeatable): a path or file:// URL.", valueName: "path"))
    var attachments: [String] = []

    // Not `--json`: every command's `--json` is its machine-readable output.
    @Option(
        name: .customLong("request"),
        help: ArgumentHelp("Read the whole request from a JSON FILE (- for standard input; Docs/MODEL.md) instead of the options above.", valueName: "file"))
    var jsonFile: String?

    private var contentOptionsGiven: Bool {
        [identifier, title, subtitle, body, thread, category, interruptionLevel, sound].contains { $0 != nil } || !attachments.isEmpty
    }

    func validate() throws {
        if jsonFile != nil && contentOptionsGiven {
            throw ValidationError("give either --request FILE or the request's options (--id, --title, …), not both")
        }
        if jsonFile == nil, (title ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // As notify-send wants a summary: without one the wearable would show an empty
            // notification, or none at all (nothing to show is a silent one).
            throw ValidationError(
                "give --title: relayctl wants a title, as notify-send wants a summary (a request without one goes with --request FILE)")
        }
        if let interruptionLevel, InterruptionLevel(rawValue: interruptionLevel) == nil {
            throw ValidationError(
                "--interruption-level '\(interruptionLevel)' is not one of: "
                    + InterruptionLevel.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    /// The request: read from `--request`, or built from the options with a fresh identifier unless `--id` names one.
    func request() throws -> NotificationRequest {
        if let jsonFile { return try Self.read(jsonFile) }
        let content = NotificationContent(
            title: title ?? "", subtitle: subtitle ?? "", body: body ?? "",
            sound: sound.map { $0 == "default" ? .default : .named($0) }, categoryIdentifier: category ?? "",
            threadIdentifier: thread ?? "",
            attachments: attachments.enumerated().map { index, path in
                NotificationAttachment(
                    identifier: "attachment-\(index + 1)", url: path.hasPrefix("/") || path.contains("://") ? path : ControlOptions.absolute(path))
            },
            interruptionLevel: interruptionLevel.flatMap(InterruptionLevel.init(rawValue:)) ?? .active)
        return NotificationRequest(identifier: identifier ?? "relayctl-" + UUID().uuidString.prefix(8).lowercased(), content: content)
    }

    /// Reads a request file; a JSON problem names the file and the field.
    private static func read(_ file: String) throws -> NotificationRequest {
        let data = try JSONInput.read(file)
        do {
            return try RelayJSON.decode(NotificationRequest.self, from: data)
        } catch let error as DecodingError {
            throw RelayCtlError("\(file): \(DecodingErrorText.describe(error)); Docs/MODEL.md describes a request's JSON")
        }
    }
}

/// Reading a JSON argument file, or standard input for `-`.
enum JSONInput {
    static func read(_ file: String) throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw RelayCtlError("cannot read \(file): no such file, or not readable")
        }
        return data
    }
}
