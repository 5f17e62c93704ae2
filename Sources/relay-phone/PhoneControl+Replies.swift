import Foundation
import PhoneAgent
import RelayControl

/// `relayctl replies`: the canned replies the wearable offers for every text-input action
/// (Docs/WEARABLE.md), kept on the phone in place of phone.toml's `[replies]` until reset.
extension PhoneControl {
    func replies(_ change: RepliesChange) -> ControlResponse {
        do {
            let current = try mirror.cannedReplies()
            let wanted: [String]?
            switch change {
            case .list: return .success(Self.values(current))
            case .add(let text):
                wanted = current.replies + [text]
            case .remove(let text):
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard current.replies.contains(trimmed) else {
                    return .failure("\"\(trimmed)\" is not one of the canned replies; `relayctl replies` lists them")
                }
                wanted = current.replies.filter { $0 != trimmed }
            case .set(let replies): wanted = replies
            case .reset: wanted = nil
            }
            if let wanted, let problem = MirrorSettings.problem(with: wanted) { return .failure(problem) }
            try mirror.setCannedReplies(wanted)
            return .success(Self.values(try mirror.cannedReplies()))
        } catch {
            return .failure("could not store the canned replies: \(error); the ones in force stay")
        }
    }

    private static func values(_ current: (replies: [String], setWithRelayctl: Bool)) -> [String: ControlValue] {
        ["replies": .list(current.replies.map(ControlValue.string)), "source": .string(current.setWithRelayctl ? "relayctl" : "phone.toml")]
    }
}
