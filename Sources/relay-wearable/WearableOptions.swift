import ArgumentParser
import Foundation
import Glibc
import RelayControl
import RelayDisplay
import RelayStore

/// The options of the wearable's screen, keys and control socket.
struct WearableOptions: ParsableArguments {
    @Option(name: .customLong("control-socket"), help: "Control socket; default: $XDG_RUNTIME_DIR/relay/wearable.sock, else /tmp/relay-$UID/wearable.sock.")
    var controlSocket: String?

    @Option(help: "Framebuffer: a device (/dev/fb1) or a file, created if missing; default: wearable.fb beside the control socket's default.")
    var framebuffer: String?

    @Option(help: "Width in pixels of a file framebuffer (a device reports its own).")
    var width: Int = 240

    @Option(help: "Height in pixels of a file framebuffer.")
    var height: Int = 240

    @Option(help: "Pixel format of a file framebuffer: rgb565 or xrgb8888.")
    var format: String = "rgb565"

    @Option(name: .customLong("input"), help: "An evdev device to read keys from (/dev/input/event0); repeatable.")
    var inputs: [String] = []

    @Option(help: "Where the phone connects in loopback mode (a Unix socket); default: wearable-link.sock beside the control socket.")
    var listen: String?

    @Option(name: .customLong("state-dir"), help: "Keys and database; default: $STATE_DIRECTORY, else $XDG_STATE_HOME/relay/wearable (~/.local/state/relay/wearable).")
    var stateDirectory: String?

    @Option(name: .customLong("device-name"), help: "The name the phone shows for this wearable; default: the host name.")
    var deviceName: String?

    @Option(name: .customLong("time-zone"), help: "Time zone of the watch face (IANA name); default: the system's.")
    var timeZone: String?

    func validate() throws {
        guard PixelFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of: \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard (1...4096).contains(width), (1...4096).contains(height) else {
            throw ValidationError("--width and --height must be between 1 and 4096 pixels")
        }
    }

    /// The options with defaults filled in and relative paths made absolute.
    func resolve(environment: [String: String], currentDirectory: String) throws -> WearableConfiguration {
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : currentDirectory + "/" + path }
        let directory = ControlSocketPath.runtimeDirectory(environment: environment, uid: getuid())
        var zone = TimeZone.current
        if let timeZone {
            guard let named = TimeZone(identifier: timeZone) else {
                throw ValidationError("unknown time zone '\(timeZone)'; use an IANA name such as Europe/Berlin")
            }
            zone = named
        }
        let control = absolute(controlSocket ?? ControlSocketPath.defaultPath(role: "wearable", environment: environment, uid: getuid()))
        return WearableConfiguration(
            controlSocket: control,
            framebuffer: absolute(framebuffer ?? directory + "/wearable.fb"),
            runtimeDirectory: directory,
            geometry: FramebufferGeometry(width: width, height: height, format: PixelFormat(rawValue: format) ?? .rgb565),
            inputs: inputs.map(absolute),
            timeZone: zone,
            // Beside the control socket by default: one folder per wearable, already private.
            linkSocket: absolute(listen ?? (control as NSString).deletingLastPathComponent + "/wearable-link.sock"),
            stateDirectory: stateDirectory.map { StateDirectory(path: absolute($0)) }
                ?? StateDirectory.resolve(role: "wearable", environment: environment),
            deviceName: deviceName ?? ProcessInfo.processInfo.hostName)
    }
}

/// What the runtime needs, resolved from the options.
struct WearableConfiguration {
    /// The control socket's path.
    var controlSocket: String
    /// The framebuffer device or file.
    var framebuffer: String
    /// The default directory for the socket and the framebuffer file.
    var runtimeDirectory: String
    /// The geometry of a file framebuffer.
    var geometry: FramebufferGeometry
    /// evdev devices to read.
    var inputs: [String]
    /// The watch face's zone.
    var timeZone: TimeZone
    /// The Unix socket the phone connects to in loopback mode.
    var linkSocket: String
    /// Keys and database.
    var stateDirectory: StateDirectory
    /// The name the phone shows.
    var deviceName: String
}
