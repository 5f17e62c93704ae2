/// Relative paths made absolute: from the configuration file's folder for file values,
/// from the current directory for flags, so a value means the same wherever the agent starts.
extension ConfigRule {
    func resolvingRelativePaths(in value: TOMLValue, against base: String) -> TOMLValue {
        switch (self, value) {
        case (.path, .string(let path)):
            return .string(Self.absolute(path, base: base))
        case (.paths, .array(let elements)):
            return .array(elements.map { element in
                guard case .string(let path) = element else { return element }
                return .string(Self.absolute(path, base: base))
            })
        case (.endpoint, .string(let endpoint)) where endpoint.hasPrefix("unix:"):
            return .string("unix:" + Self.absolute(String(endpoint.dropFirst(5)), base: base))
        default:
            return value
        }
    }

    /// `path` under `base` unless it is empty (the default) or already absolute.
    static func absolute(_ path: String, base: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/") else { return path }
        let folder = base.hasSuffix("/") ? base : base + "/"
        return folder + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}
