import Foundation

/// A process's resident memory as the kernel counts it (`/proc/PID/status`).
struct ProcessResident {
    /// `VmRSS`: everything resident, in kibibytes.
    var total: Int
    /// `RssAnon`: the heap and stacks, in kibibytes.
    var anonymous: Int
    /// `RssFile`: mapped files (the executable and shared libraries, mapped data), in kibibytes.
    var file: Int

    /// The figures of process `pid`, or `nil` if it is gone.
    init?(of pid: pid_t) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        var fields: [Substring: Int] = [:]
        for line in status.split(separator: "\n") {
            // `VmRSS:\t  12345 kB`: a tab, then spaces.
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if parts.count >= 2, let value = Int(parts[1]) { fields[parts[0]] = value }
        }
        guard let total = fields["VmRSS:"] else { return nil }
        self.total = total
        anonymous = fields["RssAnon:"] ?? 0
        file = fields["RssFile:"] ?? 0
    }
}
