import Foundation
import RelayCLI
import PhoneAgent
import RelayCore
import RelayStore

/// Sweeps the attachment store of files no delivered notification or pending request refers to
/// any more, when `AttachmentSweepPolicy` says (start-up does it at once, RelayPhone.swift).
enum AttachmentSweeper {
    /// How often the policy is asked: the count of new files is looked at this often.
    static let look: Duration = .seconds(10)

    /// Sweeps as the policy says until the task is cancelled.
    static func run(server: NotificationServer, store: AttachmentStore, log: AgentLogSink) async {
        var policy = AttachmentSweepPolicy(now: .now, written: store.filesWritten)
        while (try? await Task.sleep(for: look)) != nil {
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
