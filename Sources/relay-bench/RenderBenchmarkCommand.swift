import ArgumentParser
import WearableUI

/// The wearable's rendering into an RGB565 file framebuffer.
struct RenderBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Time to render and write frames into a 240×240 RGB565 file framebuffer.")

    @Option(help: "Frames per case.")
    var iterations: Int = 500

    func run() throws {
        print(try RenderBenchmark.run(iterations: iterations))
        print("target: ≤ 5 ms per full 240×240 frame (release)")
    }
}
