import Foundation

/// GNOME's settings through the `gsettings` tool (libglib2.0-bin), for what has no bus interface
/// to write through: GNOME keeps its "do not disturb" in GSettings (dconf), which the Settings
/// portal publishes read-only. Each call runs the tool once, at most 5 s.
enum GSettingsTool {
    static let path = "/usr/bin/gsettings"

    /// A boolean key's value; `nil` when there is no tool, no such schema or key, or no answer.
    static func boolean(_ schema: String, _ key: String) async -> Bool? {
        guard let output = try? await run(["get", schema, key]) else { return nil }
        switch output.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// Sets a boolean key.
    static func set(_ schema: String, _ key: String, to value: Bool) async throws {
        _ = try await run(["set", schema, key, value ? "true" : "false"])
    }

    /// The tool's standard output; throws when it cannot start, fails or takes too long.
    private static func run(_ arguments: [String]) async throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw GSettingsError("\(path) is not installed (Debian: libglib2.0-bin)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in finished.continuation.finish() }
        try process.run()
        let deadline = Task {
            try await Task.sleep(for: .seconds(5))
            process.terminate()
        }
        for await _ in finished.stream {}
        deadline.cancel()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw GSettingsError("gsettings \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return text
    }
}

/// `gsettings` could not do what was asked.
struct GSettingsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
