import Glibc

/// Gives back the pages of code and constant data that start-up used and the running agent will
/// not touch again (argument parsing, configuration, migrations, font loading …).
///
/// The kernel maps an executable's code in by faults, each bringing in its neighbours too, so a
/// freshly started agent holds many megabytes of code it ran once. `MADV_PAGEOUT` (Linux 5.4)
/// drops those pages from the process; what runs afterwards faults back in as it is used. The
/// price is a read from storage (or the page cache) the first time a path runs again. The same
/// holds for the shared libraries (SQLite, FreeType, libstdc++ …) and mapped fonts; their pages
/// that other processes map too are left alone by the kernel.
///
/// `MADV_RANDOM` turns read-ahead off for the read-only data. Linux 6.18 ignores it for
/// executable mappings, and a fault maps whatever of its 64 KB block is cached either way, so
/// the code that comes back is counted in such blocks (Docs/ARCHITECTURE.md, "Resident memory
/// is mostly code").
public enum StartupPages {
    /// Advises the kernel to reclaim the process's private read-only file mappings: the
    /// executable's and the libraries' code and constant data, mapped fonts (never written
    /// data, never shared mappings). Returns the bytes advised; 0 where the kernel does not
    /// offer it.
    @discardableResult
    public static func release() -> Int {
        guard let maps = readAll("/proc/self/maps") else { return 0 }
        var advised = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // address perms offset dev inode path
            guard fields.count >= 6, fields[5].hasPrefix("/"), !fields[5].hasPrefix("/dev/"),
                fields[1].hasSuffix("p"), !fields[1].contains("w")
            else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], let start = UnsafeMutableRawPointer(bitPattern: bounds[0]) else {
                continue
            }
            let length = Int(bounds[1] - bounds[0])
            _ = madvise(start, length, MADV_RANDOM)
            if madvise(start, length, pageOutAdvice) == 0 { advised += length }
        }
        return advised
    }

    /// `MADV_PAGEOUT` from <bits/mman-linux.h>, which Glibc's module does not export.
    private static let pageOutAdvice: Int32 = 21

    private static func readAll(_ path: String) -> String? {
        do throws(SystemError) {
            let descriptor = try SystemError.retrying("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = try SystemError.retrying("read(\(path))") { read(descriptor, &chunk, chunk.count) }
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        } catch {
            return nil
        }
    }
}
