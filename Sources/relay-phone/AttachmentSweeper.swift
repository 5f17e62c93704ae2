import Foundation
import RelayCLI
import PhoneAgent
import RelayCore
import RelayStore

/// Sweeps the attachment store of files no delivered notification or pending request refers to
/// any more, when `AttachmentSweepPolicy` says (start-up does it at once, RelayPhone.swift).
enum AttachmentSweeper {
    /// How often the policy is asked while files are being written: a flood is noticed
    /// within this long of its 200th file.
    static let look: Duration = .seconds(10)
    /// How often it is asked while no file was written since the last look: an idle phone wakes
    /// for it once a minute, not six times (issue #33), and a flood that starts meanwhile is
    /// looked at within a minute, then every 10 s.
    static let quietLook: Duration = .seconds(60)

    /// Sweeps as the policy says until the task is cancelled.
    static func run(server: NotificationServer, store: AttachmentStore, log: AgentLogSink) async {
        var policy = AttachmentSweepPolicy(now: .now, written: store.filesWritten)
        var seen = store.filesWritten
        var quiet = true
        while (try? await Task.sleep(for: quiet ? quietLook : look)) != nil {
            let written = store.filesWritten
            (quiet, seen) = (written == seen, written)
            guard let spare = policy.sweep(now: .now, written: store.filesWritten) else { continue }
            let inUse = server.coordinator.read { centre in
                centre.list.flatMap(\.content.attachments) + centre.apps.pending.list().flatMap(\.request.content.attachments)
            }
            let removed = store.sweep(
                keeping: Set(inUse.compactMap { AttachmentDigest(url: $0.url) }), modifiedBefore: Date().addingTimeInterval(-spare))
            if removed > 0 { log("relay-phone: \(removed) stored attachments no notification refers to any more were deleted") }
        }
    }
}
