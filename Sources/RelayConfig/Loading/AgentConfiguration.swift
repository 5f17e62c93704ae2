/// An agent's typed settings, built from checked values of its schema. The order of
/// precedence is flags, then the file, then the defaults.
public protocol AgentConfiguration: Sendable {
    /// Every key of the agent's file.
    static var schema: ConfigSchema { get }
    /// The settings from checked values.
    init(_ values: ConfigValues)
}

extension AgentConfiguration {
    /// Every setting at its default.
    public static var defaults: Self { Self(schema.defaults()) }

    /// Finds the file (`--config`, `$RELAY_CONFIG`, else the XDG default), reads it if it
    /// exists or was named, checks it, and lets `flags` override it. The error names the
    /// file, the line and the key.
    ///
    /// ```swift
    /// var flags = ConfigurationFlags()
    /// flags.set(PhoneConfiguration.Keys.bus, options.bus)            // String? from --bus
    /// let settings = try PhoneConfiguration.load(
    ///     configPath: options.config, flags: flags,
    ///     environment: ProcessInfo.processInfo.environment,
    ///     currentDirectory: FileManager.default.currentDirectoryPath)
    /// ```
    public static func load(
        configPath: String?, flags: ConfigurationFlags, environment: [String: String], currentDirectory: String
    ) throws(ConfigurationError) -> Self {
        let location = ConfigurationLocation.find(
            role: schema.role, explicitPath: configPath, environment: environment, currentDirectory: currentDirectory)
        return try Self(file: location.load(), flags: flags, currentDirectory: currentDirectory)
    }

    /// Settings from a file already read (or none: defaults) with `flags` over it.
    public init(file: ConfigurationFile?, flags: ConfigurationFlags = ConfigurationFlags(), currentDirectory: String)
        throws(ConfigurationError)
    {
        self.init(try Self.schema.values(file: file, flags: flags, currentDirectory: currentDirectory))
    }

    /// Settings from the text of a file named `path` (for tests and `--check-config`).
    public init(text: String, path: String, flags: ConfigurationFlags = ConfigurationFlags(), currentDirectory: String = "/")
        throws(ConfigurationError)
    {
        try self.init(file: ConfigurationFile(text: text, path: path), flags: flags, currentDirectory: currentDirectory)
    }
}

extension String {
    /// `nil` for the empty string, which settings use for "the agent's default".
    var nonEmpty: String? { isEmpty ? nil : self }
}
