import Foundation
import RelayCore
import RelayDisplay
import RelayText

/// Times rendering and presenting frames on a 240×240 RGB565 file framebuffer, the budget's
/// "one full frame rendered ≤ 5 ms". It prints numbers and asserts nothing: timing belongs in
/// a benchmark, not in tests that fail on a slow machine.
public enum RenderBenchmark {
    /// Runs every case `iterations` times and returns a report, one line per case.
    public static func run(iterations: Int = 200) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relay-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let geometry = FramebufferGeometry(width: 240, height: 240, format: .rgb565)
        let framebuffer = try Framebuffer.openFile(path: directory.appendingPathComponent("fb").path, geometry: geometry)
        let layout = ScreenLayout(geometry: geometry, typesetter: Typesetter(typeface: try Typeface(.dejaVuSans)))
        let renderer = ScreenRenderer(layout: layout)
        let configuration = UIConfiguration(timeZone: TimeZone(identifier: "UTC") ?? TimeZone.current)
        let now = Date(timeIntervalSince1970: 1_812_386_460)
        var machine = UIStateMachine(state: UIState(now: now, link: .connected), configuration: configuration, measurer: layout)
        let content = NotificationContent(
            title: "New Video", subtitle: "John Appleseed", body: "John Appleseed posted a new video",
            categoryIdentifier: "video")
        _ = machine.handle(.categories(["video": NotificationCategory(
            identifier: "video",
            actions: [NotificationAction(identifier: "like", title: "Like"), NotificationAction(identifier: "comment", title: "Comment")])]))
        _ = machine.handle(.upsert(WearableNotification(
            request: NotificationRequest(identifier: "video-1", content: content), appName: "Social", date: now), alert: true))
        let shortLook = machine.screenModel
        _ = machine.handle(.key(.select))
        let longLook = machine.screenModel
        _ = machine.handle(.key(.back))
        let idle = machine.screenModel
        _ = machine.handle(.tick(now: now.addingTimeInterval(60)))
        let idleNextMinute = machine.screenModel

        var canvas = Canvas(width: 240, height: 240)
        var lines = ["render + present on a 240×240 RGB565 file framebuffer, \(iterations) iterations (ms)"]
        lines.append(report("first frame", iterations: 1) {
            renderer.render(longLook, into: &canvas)
            framebuffer.presentAll(&canvas)
        })
        lines.append(report("full frame, every pixel written", iterations: iterations) {
            renderer.render(longLook, into: &canvas)
            framebuffer.presentAll(&canvas)
        })
        lines.append(report("short look after long look (changed pixels only)", iterations: iterations) { index in
            renderer.render(index % 2 == 0 ? shortLook : longLook, into: &canvas)
            framebuffer.present(&canvas)
        })
        lines.append(report("idle face, minute changes", iterations: iterations) { index in
            renderer.render(index % 2 == 0 ? idle : idleNextMinute, into: &canvas)
            framebuffer.present(&canvas)
        })
        lines.append(report("render only (long look, no present)", iterations: iterations) {
            renderer.render(longLook, into: &canvas)
        })

        // The heaviest text: Arabic shaped right to left beside colour emoji, with every script's
        // fonts (the wearable's chain on a machine with all of them).
        let scripts = ScreenLayout(geometry: geometry, typesetter: Typesetter(typeface: try Typeface(.everyScript)))
        let scriptRenderer = ScreenRenderer(layout: scripts)
        var scriptMachine = UIStateMachine(state: UIState(now: now, link: .connected), configuration: configuration, measurer: scripts)
        let arabic = NotificationContent(
            title: "مرحبا بالعالم 🎉", body: "نلتقي في الساعة السابعة عند النافورة 🇹🇭 👨‍👩‍👧 👍🏽 ❤️ 😂. لا تتأخر! الساعة 7:30")
        _ = scriptMachine.handle(.upsert(WearableNotification(
            request: NotificationRequest(identifier: "arabic-1", content: arabic), appName: "Messages", date: now), alert: true))
        _ = scriptMachine.handle(.key(.select))
        let arabicLook = scriptMachine.screenModel
        lines.append(report("first frame, Arabic and colour emoji (fonts opened, glyphs rendered)", iterations: 1) {
            scriptRenderer.render(arabicLook, into: &canvas)
            framebuffer.presentAll(&canvas)
        })
        lines.append(report("full frame, Arabic and colour emoji, every pixel written", iterations: iterations) {
            scriptRenderer.render(arabicLook, into: &canvas)
            framebuffer.presentAll(&canvas)
        })
        return lines.joined(separator: "\n")
    }

    private static func report(_ name: String, iterations: Int, _ body: () -> Void) -> String {
        report(name, iterations: iterations) { (_: Int) in body() }
    }

    private static func report(_ name: String, iterations: Int, _ body: (Int) -> Void) -> String {
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<max(1, iterations) {
            let start = clock.now
            body(index)
            let elapsed = clock.now - start
            samples.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        func percentile(_ p: Double) -> Double { samples[min(samples.count - 1, Int(Double(samples.count) * p))] }
        let mean = samples.reduce(0, +) / Double(samples.count)
        return "  \(name): mean \(format(mean)), p50 \(format(percentile(0.5))), p99 \(format(percentile(0.99))), max \(format(samples.last ?? 0))"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
