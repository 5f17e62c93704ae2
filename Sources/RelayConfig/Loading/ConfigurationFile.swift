import Foundation

/// A configuration file read and parsed; its keys are checked by a schema later.
public struct ConfigurationFile: Sendable, Equatable {
    /// The path as given, which names the file in messages.
    public let path: String
    /// The folder relative paths inside the file are taken from.
    public let directory: String
    /// The file's contents.
    public let table: TOMLTable

    /// A file from text already in memory (tests, or a file read elsewhere); `path` names it
    /// in messages and gives the folder relative paths start from.
    public init(text: String, path: String, limits: TOMLLimits = .standard) throws(ConfigurationError) {
        try self.init(bytes: Array(text.utf8), path: path, limits: limits)
    }

    init(bytes: [UInt8], path: String, limits: TOMLLimits) throws(ConfigurationError) {
        self.path = path
        directory = Self.folder(of: path)
        do {
            table = try TOML.parse(bytes: bytes, file: path, limits: limits)
        } catch {
            throw .syntax(error)
        }
    }

    /// Reads and parses the file at `path`; a missing file is an error here (callers that
    /// accept a missing default file check with `ConfigurationLocation.load()`).
    public static func load(path: String, limits: TOMLLimits = .standard) throws(ConfigurationError) -> ConfigurationFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file; check the path given with --config or RELAY_CONFIG")
        }
        guard !isDirectory.boolValue else {
            throw .unreadable(path: path, reason: "it is a folder; give the path of a .toml file")
        }
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            // One byte past the limit tells a file that is too large (or endless, like a
            // device) from one that fits, without reading all of it.
            bytes = try handle.read(upToCount: limits.maximumBytes + 1) ?? Data()
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        guard bytes.count <= limits.maximumBytes else {
            throw .unreadable(path: path, reason: "it is larger than \(limits.maximumBytes) bytes, too large for a configuration file")
        }
        return try ConfigurationFile(bytes: Array(bytes), path: path, limits: limits)
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return FileManager.default.currentDirectoryPath }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, cocoa.code == .fileReadNoPermission {
            return "permission denied; make it readable by the agent's user"
        }
        return "\(error.localizedDescription)"
    }
}
