public import Foundation
import Synchronization

/// A child process started with `posix_spawn`, its standard output delivered line by line.
///
/// Foundation's `Process` is not used because tests run in parallel: it creates descriptors without
/// close-on-exec, so a child spawned by one test inherits another test's pipes and sockets, and the
/// other test then waits for an end-of-file or exit notification that only comes when the unrelated
/// child dies. Here every descriptor is created close-on-exec, and the child gets a clean signal
/// mask (the test runner blocks SIGTERM in its threads, and spawned children would inherit that).
public final class ChildProcess: Sendable {
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare; looked up once.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt).self)
    }()

    /// Lines of standard output, without newlines; finishes when the child closes its output.
    public let lines: AsyncStream<String>
    /// The child's process id.
    public let pid: pid_t
    private let exited = Gate()
    private let status = Mutex<Int32>(0)

    /// Starts `executable` with `arguments`; `environment` is added to this process's environment.
    /// With `mergingStandardError`, standard error joins ``lines`` (for agents' log lines).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], mergingStandardError: Bool = false
    ) throws {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer {
            close(sockets[1])
            close(devNull)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, devNull, 0)
        posix_spawn_file_actions_adddup2(&actions, sockets[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergingStandardError ? sockets[1] : devNull, 2)
        // Nothing else of this process leaks into the child: a socket the test closes (a link the
        // simulator cuts) must not stay open in a child that outlives the cut.
        _ = Self.addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let fullEnvironment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = fullEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(sockets[0])
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
        }
        pid = child

        let (lines, lineContinuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        let reader = sockets[0]
        // Blocking reads and waits on dedicated threads: each returns exactly when the child acts.
        Thread.detachNewThread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    lineContinuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { lineContinuation.yield(String(decoding: pending, as: UTF8.self)) }
            lineContinuation.finish()
            close(reader)
        }
        Thread.detachNewThread { [self, child] in
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
            // WIFEXITED/WEXITSTATUS are macros; exit code in bits 8-15, or 128 + signal number.
            let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            self.status.withLock { $0 = code }
            self.exited.open()
        }
    }

    /// Waits for the child to exit and returns its exit code (128 + signal if it was killed).
    public func wait() async -> Int32 {
        await exited.wait()
        return status.withLock { $0 }
    }

    /// Sends `signal` (SIGKILL by default) and waits for the child to exit.
    public func stop(_ signal: Int32 = SIGKILL) async {
        // Once reaped, the pid may belong to someone else.
        if !exited.isOpen { kill(pid, signal) }
        _ = await wait()
    }
}
