import Foundation
import RelayStore

/// The canned replies set with `relayctl replies` (Docs/WEARABLE.md, "The long look's buttons"):
/// stored on the phone, in place of the configuration's until reset, and sent to the wearable
/// with the other settings.
extension MirrorCoordinator {
    /// Where the replies set with relayctl are kept (`centre_state`), as a JSON list; absent
    /// while the configuration's are in force.
    static let userRepliesName = "canned_replies"

    static func storedUserReplies(in database: RelayDatabase) throws -> [String]? {
        try database.read { db in try PhoneSchema.value(db, userRepliesName) }.map { try JSONDecoder().decode([String].self, from: $0) }
    }

    /// The canned replies in force, and whether they were set with relayctl (else they are the
    /// configuration's).
    public func cannedReplies() throws -> (replies: [String], setWithRelayctl: Bool) {
        let stored = try Self.storedUserReplies(in: link.database)
        return (mirror.withLock { $0.settings.cannedReplies }, stored != nil)
    }

    /// Makes `replies` the canned replies (`nil`: the configuration's again): stored, then put in
    /// the wearable's log. Returns once both are on disk; a restart in between sends them at start.
    /// Check them first with `MirrorSettings.problem(with:)`.
    public func setCannedReplies(_ replies: [String]?) throws {
        let encoded = try replies.map { try JSONEncoder().encode($0.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }) }
        try link.committer.submit { db in
            if let encoded {
                try PhoneSchema.setValue(db, Self.userRepliesName, encoded)
            } else {
                try PhoneSchema.removeValue(db, Self.userRepliesName)
            }
        }.waitBlocking()
        mirror.withLock { $0.settings.cannedReplies = MirrorSettings.fitted(replies ?? configuredReplies) }
        try sendSettingsIfChanged()
    }
}
