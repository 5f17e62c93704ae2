import Foundation

/// The framebuffer devices the kernel has, each with its driver's name as
/// `/sys/class/graphics/fbN/name` gives it (`fb_st7789v`, `panel-mipi-dbid`, `vc4drmfb`): how
/// relay-wearable finds its panel by what it is, whatever number the kernel gave it this boot.
public struct FramebufferDevices: Sendable, Hashable {
    /// One framebuffer device.
    public struct Device: Sendable, Hashable, CustomStringConvertible {
        /// `/dev/fb1`.
        public var path: String
        /// The driver's name for it.
        public var driver: String

        /// `/dev/fb1 (fb_st7789v)`.
        public var description: String { "\(path) (\(driver))" }
    }

    /// The devices, in the order of their numbers.
    public let devices: [Device]

    /// The framebuffers listed under `sysfs` (each `fbN` with its `name`), as device nodes in
    /// `devices`. A folder that cannot be read lists none.
    public init(sysfs: String = "/sys/class/graphics", devices directory: String = "/dev") {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        devices = entries.compactMap { entry -> (Int, Device)? in
            guard entry.hasPrefix("fb"), let number = Int(entry.dropFirst(2)),
                let name = try? String(contentsOfFile: sysfs + "/" + entry + "/name", encoding: .utf8)
            else { return nil }
            return (number, Device(path: directory + "/" + entry, driver: name.trimmingCharacters(in: .whitespacesAndNewlines)))
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The device of the driver named `driver`; an error that lists what there is when no
    /// device, or more than one, has that driver.
    public func path(ofDriver driver: String) throws(FramebufferLookupError) -> String {
        let matching = devices.filter { $0.driver == driver }
        guard matching.count == 1 else { throw FramebufferLookupError(driver: driver, found: devices, matching: matching.count) }
        return matching[0].path
    }

    /// `/dev/fb0 (vc4drmfb), /dev/fb1 (fb_st7789v)`, or `none`.
    public var listing: String {
        devices.isEmpty ? "none" : devices.map(\.description).joined(separator: ", ")
    }
}

/// No framebuffer, or more than one, has the driver the configuration names.
public struct FramebufferLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The driver's name looked for.
    public var driver: String
    /// Every framebuffer there is.
    public var found: [FramebufferDevices.Device]
    /// How many have that driver.
    public var matching: Int

    /// What happened and what to do, with the framebuffers there are.
    public var description: String {
        let here = found.isEmpty ? "none" : found.map(\.description).joined(separator: ", ")
        return matching == 0
            ? "no framebuffer's driver is named \"\(driver)\" (the framebuffers here: \(here)); load the panel's overlay "
                + "(Hardware/README.md), or name one of these drivers"
            : "\(matching) framebuffers have the driver \"\(driver)\" (\(here)); name the device with framebuffer = \"/dev/fbN\" instead"
    }
}
