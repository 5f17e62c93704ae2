import ArgumentParser
import Foundation
import RelayCore

/// `relayctl check`: validates notification files and prints their schedules.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate request, category or push-payload JSON files and print when requests fire.",
        discussion: """
            Each FILE holds one JSON object in the form Docs/MODEL.md describes: a request \
            (with "identifier" and "content"), a category (with "identifier" and "actions" or \
            placeholders), or an APNs-style push payload (with "aps"). Use - for standard input. \
            Exits with status 1 when any file has problems, listing every problem with its field.
            """)

    @Argument(help: "The JSON files to check (- reads standard input).")
    var files: [String]

    @OptionGroup var schedule: ScheduleOptions

    func run() throws {
        var failures = 0
        for file in files {
            do {
                let data = try read(file)
                print("\(file): " + (try check(data)))
            } catch {
                failures += 1
                print("\(file): invalid")
                for line in String(describing: error).split(separator: "\n") { print("  \(line)") }
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    private func read(_ file: String) throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CheckError("cannot read \(file): no such file, or not readable")
        }
        return data
    }

    /// Recognises the file's kind by its keys, validates it and describes it.
    private func check(_ data: Data) throws -> String {
        let object: [String: JSONValue]
        do {
            guard let members = try JSONDecoder().decode(JSONValue.self, from: data).objectValue else {
                throw CheckError("expected a JSON object")
            }
            object = members
        } catch let error as CheckError {
            throw error
        } catch {
            throw CheckError("not valid JSON")
        }
        if object["aps"] != nil {
            let payload = try PushPayload.parse(data)
            try payload.content.validate(as: "content")
            let flags = [payload.mutableContent ? "mutable-content" : nil, payload.contentAvailable ? "content-available" : nil]
                .compactMap { $0 }
            let summary = payload.isSilent ? "silent (never shown or mirrored)" : "\"\(payload.content.title)\" — \(payload.content.body)"
            return "valid push payload: \(summary)" + (flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]")
        }
        if object["content"] != nil || object["trigger"] != nil {
            let request = try decode(NotificationRequest.self, from: data)
            try request.validate(as: "request")
            return "valid request '\(request.identifier)': \(schedule.describeSchedule(of: request))"
        }
        if object["actions"] != nil || object["hiddenPreviewsBodyPlaceholder"] != nil || object["options"] != nil {
            let category = try decode(NotificationCategory.self, from: data)
            try category.validate(as: "category")
            return "valid category '\(category.identifier)' with \(category.actions.count) action(s)"
        }
        throw CheckError("cannot tell what this is: a request has \"content\", a category \"actions\", a push payload \"aps\"")
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try RelayJSON.decode(type, from: data)
        } catch let error as DecodingError {
            throw CheckError(DecodingErrorText.describe(error))
        }
    }
}

/// A problem with a checked file, for people.
struct CheckError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Turns Foundation's decoding errors into one line naming the JSON path.
enum DecodingErrorText {
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "(top level)" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) has the wrong type; expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) is null; expected \(type)"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
