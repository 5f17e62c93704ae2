import ArgumentParser
import RelayControl

/// `relayctl screenshot PATH`: a PNG of what the wearable's screen shows.
struct ScreenshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot",
        abstract: "Save a PNG of what the wearable's screen shows.",
        discussion: """
            The wearable agent reads its framebuffer back (exactly the pixels the panel got, \
            RGB565 rounding included) and writes the PNG itself, so PATH must be writable by the \
            agent's user; a relative PATH is taken from relayctl's current directory.
            """)

    @Argument(help: "Where to write the PNG file.")
    var path: String

    @OptionGroup var control: ControlOptions

    func run() throws {
        let response = try control.send(WearableRequest.screenshot(path: ControlOptions.absolute(path)))
        let size = [response.values["width"], response.values["height"]].compactMap { $0?.description }.joined(separator: "×")
        print("\(response.values["path"]?.description ?? path): \(size)")
    }
}
