import Glibc
import RelaySystem

/// `sockaddr_un` for a path, and the calls that take it.
enum UnixSocketAddress {
    /// Runs `body` with the address of `path`, or fails when the path does not fit.
    @discardableResult
    static func with<Result>(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
    ) throws(ControlError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // One byte stays for the terminating NUL.
        guard !bytes.isEmpty, bytes.count < capacity else { throw .pathTooLong(path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2) + socklen_t(bytes.count + 1)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Swift.Result { () throws(SystemError) in try body(address, length) }
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .system(error)
        }
    }

    /// A new close-on-exec Unix stream socket.
    static func makeSocket(flags: Int32 = 0) throws(SystemError) -> Int32 {
        try SystemError.retrying("socket(AF_UNIX)") {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        }
    }

    /// Connects a socket to a path.
    static func connect(_ descriptor: Int32, to path: String) throws(ControlError) {
        try with(path) { address, length throws(SystemError) in
            // A connect interrupted by a signal continues in the background; retrying it would
            // fail with EALREADY, but a Unix stream connect completes at once, so EINTR is rare
            // enough that the uniform retry is acceptable here.
            try SystemError.retrying("connect(\(path))") { Glibc.connect(descriptor, address, length) }
        }
    }

    /// Bounds how long one read or write on a socket may block, so a stalled peer cannot stall
    /// the agent's loop (or relayctl) for ever.
    static func setTimeouts(_ descriptor: Int32, seconds: Int) throws(SystemError) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            try SystemError.retrying("setsockopt(\(option == SO_RCVTIMEO ? "SO_RCVTIMEO" : "SO_SNDTIMEO"))") {
                setsockopt(descriptor, SOL_SOCKET, option, &timeout, size)
            }
        }
    }
}
