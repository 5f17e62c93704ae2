public import Foundation
public import RelayCore

/// What a notification costs on the link, for the budget in Docs/PROTOCOL.md and the
/// benchmark that compares it with JSON.
public enum LinkCost {
    /// Bytes of a Noise tag, appended to every encrypted frame.
    public static let noiseTagBytes = 16

    /// The bytes one upsert of `request` occupies on the link: frame header, envelope and
    /// Noise tag, with realistic sequence numbers and timestamps.
    /// Keys are as a phone with a few hundred notifications, a dozen apps and a few
    /// dozen threads would assign them.
    public static func upsertBytesOnLink(
        _ request: NotificationRequest, key: UInt64, revision: UInt64, seq: UInt64, ack: UInt64,
        deliveredAt: Date = Date(timeIntervalSince1970: 1_800_000_000)
    ) throws -> Int {
        let envelope = Relay_V1_Envelope.with {
            $0.seq = seq
            $0.ack = ack
            $0.change = .with {
                $0.upsert = .with {
                    $0.key = key
                    $0.revision = revision
                    $0.appKey = 12
                    $0.content = Relay_V1_Content(
                        request.content, categoryKey: request.content.categoryIdentifier.isEmpty ? 0 : 3,
                        threadKey: request.content.threadIdentifier.isEmpty ? 0 : 37)
                    $0.mayAlert = true
                    $0.deliveredAt = WireTime.seconds(deliveredAt)
                }
            }
        }
        let payload: Data = try envelope.serializedBytes()
        return FrameFormat.headerLength + payload.count + noiseTagBytes
    }

    /// The bytes of what the user reads: title, subtitle and body in UTF-8.
    public static func textBytes(_ content: NotificationContent) -> Int {
        content.title.utf8.count + content.subtitle.utf8.count + content.body.utf8.count
    }

    /// The same request in the model's canonical JSON, for comparison.
    public static func jsonBytes(_ request: NotificationRequest) throws -> Int {
        try RelayJSON.encode(request).count
    }
}
