public import Foundation

/// An app or a thread the user silenced, for a while or for good: its notifications arrive
/// silently and stay in the list.
public struct Mute: Sendable, Hashable, CustomStringConvertible {
    /// What is muted.
    public enum Scope: Sendable, Hashable {
        /// Every notification of an app (by its name).
        case app(String)
        /// One thread of an app.
        case thread(app: String, thread: String)
    }

    /// What is muted.
    public var scope: Scope
    /// When the mute ends; `nil`: never (until removed).
    public var until: Date?

    /// A mute of `scope` until `until` (`nil`: always).
    public init(_ scope: Scope, until: Date? = nil) {
        self.scope = scope
        self.until = until
    }

    /// Whether it silences a notification of `app` in `thread` at `now`.
    public func silences(app: String, thread: String, at now: Date) -> Bool {
        guard until.map({ now < $0 }) ?? true else { return false }
        switch scope {
        case .app(let muted): return muted == app
        case .thread(let mutedApp, let mutedThread): return mutedApp == app && mutedThread == thread && !thread.isEmpty
        }
    }

    /// `muted app "Mail" until …`, `muted thread "team" of "Chat"`.
    public var description: String {
        let what =
            switch scope {
            case .app(let app): "muted app \"\(app)\""
            case .thread(let app, let thread): "muted thread \"\(thread)\" of \"\(app)\""
            }
        return what + (until.map { " until \($0.formatted(.iso8601))" } ?? "")
    }
}
