import Foundation
public import GRDB

/// Whether a power cut may have taken commits that relay-phone had already handed on.
///
/// relay-phone sends log entries to the wearable while their commit syncs
/// (`GroupCommitter`'s `written`), and answers the app only after the sync. A crash of the
/// process loses none of it: the kernel holds what was written. A power cut (or a kernel
/// crash) in that fraction of a millisecond can: the wearable then holds entries, and keys,
/// that the phone no longer knows and would hand out again for something else.
///
/// So each run records the boot it runs in, and a clean stop says so. At start-up, a record of
/// a run that did not stop cleanly, in an earlier boot, means writes may be lost: the phone then
/// starts a new log epoch and moves its key counters on before it writes anything else.
public enum RunRecord {
    /// Where the record is kept (the centre's named values).
    static let name = "run"

    /// What a start-up finds.
    public enum Finding: Sendable, Equatable {
        /// No run before, or the last one stopped cleanly.
        case clean
        /// The last run did not stop, but the machine has not restarted since: nothing written
        /// can have been lost.
        case crashedInThisBoot
        /// The last run did not stop and the machine restarted since (or its boot is unknown):
        /// commits that were not synced may be gone.
        case mayHaveLostWrites
    }

    /// What the last run left, seen from the boot `bootID` (nil when it cannot be read).
    public static func check(_ db: Database, bootID: String?) throws -> Finding {
        guard let stored = try PhoneSchema.value(db, name), let text = String(data: stored, encoding: .utf8) else {
            return .clean
        }
        let parts = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1] == "running" else { return .clean }
        guard let bootID, parts[0] == bootID else { return .mayHaveLostWrites }
        return .crashedInThisBoot
    }

    /// Records a run in boot `bootID` that has not stopped yet; after `check` and whatever
    /// recovery it asked for, so that a crash during the recovery leads to another.
    public static func started(_ db: Database, bootID: String?) throws {
        try PhoneSchema.setValue(db, name, Data("\(bootID ?? "unknown")\nrunning".utf8))
    }

    /// Records that the run stopped cleanly: everything it wrote is synced.
    public static func stopped(_ db: Database) throws {
        try PhoneSchema.setValue(db, name, Data("\nstopped".utf8))
    }

    /// The kernel's id of the current boot, which changes at every boot; nil where there is none.
    public static func currentBootID() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else { return nil }
        let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }
}
