import ArgumentParser
import RelayCore
import RelayExamples
import RelayWire

/// Bytes on the link for each seed notification, next to the same content as JSON.
struct LinkCostBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link-cost", abstract: "Bytes on the link per seed notification, next to JSON.")

    func run() throws {
        let requests = SeedExamples.thaiVacationThread + SeedExamples.workThread
            + [try SeedExamples.newVideoRequest(), SeedExamples.meetingInvite, SeedExamples.cyrillicMessage, SeedExamples.emojiMessage]
        print("notification               text  link  overhead  JSON")
        var worst = 0
        for request in requests {
            let link = try LinkCost.upsertBytesOnLink(request, key: 4_321, revision: 1, seq: 1_234, ack: 567)
            let text = LinkCost.textBytes(request.content)
            let json = try LinkCost.jsonBytes(request)
            let name = request.identifier.padding(toLength: 25, withPad: " ", startingAt: 0)
            print("\(name) \(pad(text, 5)) \(pad(link, 5)) \(pad(link - text, 9)) \(pad(json, 5))")
            // Only the worst case goes into the summary: the size rule is also a test (LinkCostTests).
            FigureLog.record(
                "link-cost", "\(request.identifier): bytes on the link (text + overhead; as JSON)",
                "\(link) (\(text) + \(link - text); JSON \(json))", target: "≤ text + 64", met: link - text <= 64,
                summary: false)
            worst = max(worst, link - text)
        }
        FigureLog.record(
            "link-cost", "largest overhead of a seed notification on the link, bytes", "\(worst)", target: "≤ 64", met: worst <= 64)
        print("target: no notification costs more than its text bytes + 64 (frame header and Noise tag included)")
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
