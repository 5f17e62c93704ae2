import Foundation
import RelayConfig
import Testing

/// Docs/CONFIGURATION.md holds each schema's rendering between markers; the two must match.
@Suite(.serialized) struct ConfigDocumentationTests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/CONFIGURATION.md")

    @Test func theDocumentationShowsEachSchemaAsItIs() throws {
        var text = try String(contentsOf: Self.document, encoding: .utf8)
        let original = text
        for schema in [PhoneConfiguration.schema, WearableConfiguration.schema] {
            let begin = "<!-- BEGIN GENERATED: \(schema.role) -->\n", end = "<!-- END GENERATED: \(schema.role) -->"
            let start = try #require(text.range(of: begin), "Docs/CONFIGURATION.md lacks the marker \(begin)")
            let finish = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
            text.replaceSubrange(start.upperBound..<finish.lowerBound, with: schema.referenceMarkdown)
        }
        if ProcessInfo.processInfo.environment["RELAY_UPDATE_DOCS"] == "1", text != original {
            try text.write(to: Self.document, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            text == original,
            "Docs/CONFIGURATION.md differs from the schemas; run RELAY_UPDATE_DOCS=1 swift test --filter ConfigDocumentationTests")
    }

    @Test func everyKeyIsDocumentedOnce() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        for schema in [PhoneConfiguration.schema, WearableConfiguration.schema] {
            let reference = schema.referenceMarkdown
            for key in schema.keys {
                #expect(reference.components(separatedBy: "| `\(key.path)` |").count == 2, "\(key.path) in the table")
            }
            #expect(text.contains(reference))
        }
    }
}
