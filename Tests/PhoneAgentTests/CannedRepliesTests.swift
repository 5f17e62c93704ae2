import Foundation
import Logging
import PhoneAgent
import RelayCore
import RelayStore
import RelayWire
import Testing

/// The canned replies set with `relayctl replies`: checked, stored in place of the
/// configuration's, kept across a restart, and given back by reset.
@Suite struct CannedRepliesTests {
    @Test func refusedRepliesSayWhy() {
        #expect(MirrorSettings.problem(with: ["Yes", "On my way", "👍"]) == nil)
        #expect(MirrorSettings.problem(with: []) == nil)
        #expect(MirrorSettings.problem(with: ["  "])?.contains("needs some text") == true)
        #expect(MirrorSettings.problem(with: ["two\nlines"])?.contains("one line") == true)
        #expect(MirrorSettings.problem(with: ["Yes", " Yes "])?.contains("already one") == true)
        let long = String(repeating: "é", count: 65)
        #expect(MirrorSettings.problem(with: [long])?.contains("at most \(ModelLimits.actionTextBytes) bytes") == true)
        let many = (1...17).map { "Reply \($0)" }
        #expect(MirrorSettings.problem(with: many)?.contains("at most 16") == true)
        #expect(MirrorSettings.problem(with: Array(many.prefix(16))) == nil)
    }

    @Test func setRepliesOutliveARestartUntilReset() throws {
        let folder = NSTemporaryDirectory() + "relay-replies-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let directory = StateDirectory(path: folder)
        try directory.prepare()
        try KeyStore(directory: directory).setPartner(Data(repeating: 7, count: 32))
        let configured = MirrorSettings(cannedReplies: ["From phone.toml"])

        func started() throws -> (PhoneLink, MirrorCoordinator) {
            let link = try PhoneLink(
                directory: directory,
                configuration: PhoneLink.Configuration(endpoint: .unix(path: folder + "/none.sock"), deviceName: "Test Phone"),
                logger: logger)
            return (link, try MirrorCoordinator(link: link, settings: configured, logger: logger))
        }

        var (link, mirror) = try started()
        #expect(try mirror.cannedReplies() == (["From phone.toml"], false))
        try mirror.setCannedReplies([" Call you later ", "👍"])
        #expect(try mirror.cannedReplies() == (["Call you later", "👍"], true))
        let sent = try link.database.read { db in try PhoneSchema.value(db, "sent_settings") }
        #expect(try Relay_V1_Settings(serializedBytes: #require(sent)).cannedReplies == ["Call you later", "👍"], "in the wearable's log")
        link.committer.stop()

        (link, mirror) = try started()
        #expect(try mirror.cannedReplies() == (["Call you later", "👍"], true), "kept across a restart")
        try mirror.setCannedReplies([])
        #expect(try mirror.cannedReplies() == ([], true), "none at all is a choice too")
        try mirror.setCannedReplies(nil)
        #expect(try mirror.cannedReplies() == (["From phone.toml"], false))
        link.committer.stop()

        (link, mirror) = try started()
        #expect(try mirror.cannedReplies() == (["From phone.toml"], false), "reset is kept as well")
        link.committer.stop()
    }
}
