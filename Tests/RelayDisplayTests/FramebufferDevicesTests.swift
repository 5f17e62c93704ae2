import Foundation
import RelayDisplay
import Testing

/// Finding the panel by its driver's name, in a sysfs folder made for the test.
@Suite struct FramebufferDevicesTests {
    private func sysfs(_ drivers: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-graphics-\(UUID().uuidString)").path
        for (entry, driver) in drivers {
            try FileManager.default.createDirectory(atPath: folder + "/" + entry, withIntermediateDirectories: true)
            try Data((driver + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/" + entry + "/name"))
        }
        // What else the class folder holds on a board: the console, without a name file.
        try FileManager.default.createDirectory(atPath: folder + "/fbcon", withIntermediateDirectories: true)
        return folder
    }

    @Test func theDriversNameFindsItsDeviceWhateverItsNumber() throws {
        let folder = try sysfs(["fb0": "vc4drmfb", "fb1": "fb_st7789v", "fb10": "simple"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let devices = FramebufferDevices(sysfs: folder)
        #expect(devices.listing == "/dev/fb0 (vc4drmfb), /dev/fb1 (fb_st7789v), /dev/fb10 (simple)")
        #expect(try devices.path(ofDriver: "fb_st7789v") == "/dev/fb1")
        #expect(try devices.path(ofDriver: "simple") == "/dev/fb10")
    }

    @Test func aDriverThatIsMissingOrTwiceIsAnErrorListingWhatThereIs() throws {
        let folder = try sysfs(["fb0": "vc4drmfb", "fb1": "fb_ili9341", "fb2": "fb_ili9341"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let devices = FramebufferDevices(sysfs: folder)
        let missing = #expect(throws: FramebufferLookupError.self) { try devices.path(ofDriver: "fb_st7789v") }
        #expect(missing?.description.hasPrefix("no framebuffer's driver is named \"fb_st7789v\" (the framebuffers here: /dev/fb0 (vc4drmfb), /dev/fb1 (fb_ili9341), /dev/fb2 (fb_ili9341))") == true)
        let twice = #expect(throws: FramebufferLookupError.self) { try devices.path(ofDriver: "fb_ili9341") }
        #expect(twice?.description.contains("name the device with framebuffer = \"/dev/fbN\"") == true)
        #expect(FramebufferDevices(sysfs: folder + "/nothing-here").listing == "none")
    }
}
