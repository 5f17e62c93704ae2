import Foundation
import PhoneAgent
import RelayCore
import RelayStore

/// Deletes, once an hour, the stored attachments no delivered notification or pending request
/// refers to any more (start-up does the same at once, RelayPhone.swift). Files stored within
/// the last ten minutes are spared: they may belong to a notification on its way into the centre.
enum AttachmentSweeper {
    static let interval: Duration = .seconds(3600)
    static let grace: TimeInterval = 600

    /// Sweeps every `interval` until the task is cancelled.
    static func run(server: NotificationServer, store: AttachmentStore, log: @escaping @Sendable (String) -> Void) async {
        while (try? await Task.sleep(for: interval)) != nil {
            let inUse = server.state.withLock { state in
                state.centre.list.flatMap(\.content.attachments) + state.centre.apps.pending.list().flatMap(\.request.content.attachments)
            }
            let removed = store.sweep(
                keeping: Set(inUse.compactMap { AttachmentDigest(url: $0.url) }), modifiedBefore: Date().addingTimeInterval(-grace))
            if removed > 0 { log("relay-phone: \(removed) stored attachments no notification refers to any more were deleted") }
        }
    }
}
