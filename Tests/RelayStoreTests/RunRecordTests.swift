import Foundation
import GRDB
import RelayStore
import Testing

/// The start-up check for writes a power cut may have taken: only a run that never stopped,
/// seen from a later boot, asks for the recovery.
@Suite struct RunRecordTests {
    private func withDatabase(_ body: (RelayDatabase) throws -> Void) throws {
        let folder = try RelayDatabaseTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(try RelayDatabase(path: folder + "/phone.sqlite", migrations: PhoneSchema.migrations))
    }

    @Test func onlyARunThatNeverStoppedSeenFromAnotherBootMayHaveLostWrites() throws {
        try withDatabase { database in
            func check(_ boot: String?) throws -> RunRecord.Finding {
                try database.read { db in try RunRecord.check(db, bootID: boot) }
            }
            // The first run has nothing to lose.
            #expect(try check("boot-a") == .clean)

            try database.write { db in try RunRecord.started(db, bootID: "boot-a") }
            #expect(try check("boot-a") == .crashedInThisBoot)
            #expect(try check("boot-b") == .mayHaveLostWrites)
            #expect(try check(nil) == .mayHaveLostWrites)

            try database.write { db in try RunRecord.stopped(db) }
            #expect(try check("boot-a") == .clean)
            #expect(try check("boot-b") == .clean)

            // A run in an unknown boot that did not stop: any later start may have lost writes.
            try database.write { db in try RunRecord.started(db, bootID: nil) }
            #expect(try check(nil) == .mayHaveLostWrites)
        }
    }

    @Test func theBootIDIsReadFromTheKernel() throws {
        let id = try #require(RunRecord.currentBootID())
        #expect(UUID(uuidString: id) != nil)
        #expect(RunRecord.currentBootID() == id)
    }
}
