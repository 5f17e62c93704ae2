import Foundation
import Glibc

/// What the figures were measured on, read from the kernel: they mean little without it.
struct MachineDescription {
    /// Online processors.
    var cores: Int
    /// `/proc/cpuinfo`'s model name (or the architecture when it has none).
    var cpu: String
    /// `MemTotal` in bytes.
    var memory: Int?
    /// The kernel's release and architecture.
    var kernel: String

    /// This machine.
    static var current: MachineDescription {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memory = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }.map { $0 * 1024 }
        return MachineDescription(
            cores: sysconf(Int32(_SC_NPROCESSORS_ONLN)), cpu: model ?? machine, memory: memory,
            kernel: "Linux \(release) \(machine)")
    }

    /// "2 cores, AMD EPYC 7B13, 24.0 GiB, Linux 6.1.0 x86_64".
    var description: String {
        var parts = ["\(cores) cores", cpu]
        if let memory { parts.append(String(format: "%.1f GiB", Double(memory) / 1_073_741_824)) }
        parts.append(kernel)
        return parts.joined(separator: ", ")
    }
}
