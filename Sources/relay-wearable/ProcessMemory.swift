import Foundation
import Glibc

/// This process's memory as the kernel counts it.
enum ProcessMemory {
    /// Resident set size in bytes, from `/proc/self/statm` (its second field, in pages); `nil`
    /// where there is no procfs.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
