import ArgumentParser
import Glibc
import RelayCLI
import RelayDisplay

/// Finds the panel's framebuffer by its driver's name (`panel` in wearable.toml), waiting for
/// it: an SPI panel's driver may finish loading after the service starts, and its device node
/// may reach group `video` (udev) a moment after it appears.
enum PanelSearch {
    /// How long a driver may take to appear before the name counts as a mistake.
    static let patience: Duration = .seconds(60)

    /// The device of `driver`'s framebuffer once there is one this user may open, looked for
    /// each second; says once that it waits, naming the framebuffers there are. After
    /// ``patience``, or when several framebuffers have that driver, it refuses the
    /// configuration (exit 78: a restart would not help); a stop ends it with `CancellationError`.
    static func wait(driver: String, log: AgentLogSink) async throws -> String {
        let deadline = ContinuousClock.now + patience
        var said: String?
        while true {
            let result = Result { () throws(FramebufferLookupError) in try FramebufferDevices().path(ofDriver: driver) }
            let waiting: String
            switch result {
            case .success(let path) where access(path, R_OK | W_OK) == 0:
                return path
            case .success(let path):
                waiting = "\(path), the framebuffer of \"\(driver)\", may not be opened yet (group video)"
            case .failure(let error) where error.matching > 1:
                throw ConfigurationRefusal.refuse("panel: \(error)", executable: "relay-wearable")
            case .failure(let error):
                waiting = "\(error)"
            }
            if said != waiting { log("relay-wearable: waiting for the panel: " + waiting) }
            said = waiting
            guard ContinuousClock.now < deadline else {
                throw ConfigurationRefusal.refuse(
                    "panel: after \(patience.components.seconds) s, \(waiting)", executable: "relay-wearable")
            }
            try await Task.sleep(for: .seconds(1))
        }
    }
}
