import RelayCLI
import RelayDisplay

/// Finds the panel's framebuffer by its driver's name (`panel` in wearable.toml), waiting for
/// it: an SPI panel's driver may finish loading after the service starts, and a wearable that
/// gave up then would stay dark until someone restarted it.
enum PanelSearch {
    /// The device of `driver`'s framebuffer, once there is one, looked for each second; says
    /// once that it waits, naming the framebuffers there are. Throws when several have that
    /// driver (the configuration must name the device), or `CancellationError` when stopped.
    static func wait(driver: String, log: AgentLogSink) async throws -> String {
        var said = false
        while true {
            let result = Result { () throws(FramebufferLookupError) in try FramebufferDevices().path(ofDriver: driver) }
            switch result {
            case .success(let path):
                return path
            case .failure(let error) where error.matching > 1:
                throw error
            case .failure(let error):
                if !said { log("relay-wearable: waiting for the panel: \(error)") }
                said = true
            }
            try await Task.sleep(for: .seconds(1))
        }
    }
}
