/// Bounds that keep a hostile or broken file from exhausting memory or the stack.
public struct TOMLLimits: Sendable, Hashable {
    /// The largest file accepted, in bytes.
    public var maximumBytes: Int
    /// The deepest nesting of tables and arrays (a value under `[a.b]` at key `c` is at depth 3).
    public var maximumDepth: Int

    /// Creates limits.
    public init(maximumBytes: Int, maximumDepth: Int) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
    }

    /// 1 MiB and 32 levels: a configuration file is a few kilobytes and three levels deep.
    public static let standard = TOMLLimits(maximumBytes: 1 << 20, maximumDepth: 32)
}
