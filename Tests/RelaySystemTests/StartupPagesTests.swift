import Glibc
import RelaySystem
import Testing

@Suite struct StartupPagesTests {
    static func residentPages() -> Int {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &buffer, buffer.count)
        let fields = String(decoding: buffer[..<max(0, count)], as: UTF8.self).split(separator: " ")
        return fields.count > 1 ? Int(fields[1]) ?? 0 : 0
    }

    @Test("the read-only pages of the executable and its libraries are handed back, and the code still runs afterwards")
    func releasesOwnCode() {
        let before = Self.residentPages()
        let advised = StartupPages.release()
        #expect(advised > 1 << 20, "at least a megabyte of code and constants advised: \(advised)")
        // The code runs again: whatever it needs faults back in.
        let after = Self.residentPages()
        #expect(after > 0 && before > 0)
        #expect([3, 1, 2].sorted() == [1, 2, 3])
    }
}
