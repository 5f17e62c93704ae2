import Foundation
import Glibc
import RelaySystem

/// Newline-delimited messages on a connected stream socket: what both ends of a control
/// connection read and write.
enum LineSocket {
    /// The longest request an agent accepts; a request is a command and a path, far below this.
    static let maximumRequestLength = 64 * 1024
    /// The longest reply relayctl accepts. Replies list notifications (`delivered`,
    /// `notifications`), a few hundred bytes each, so thousands of them run past a request's
    /// limit; this still bounds what a confused agent can make relayctl hold.
    static let maximumReplyLength = 64 * 1024 * 1024

    /// How long an agent gives a client for its whole request: the socket's timeout bounds
    /// each read, and this a client trickling a byte at a time, which would otherwise hold one
    /// of the agent's few control threads for as long as it liked.
    static let requestDeadline: Duration = .seconds(5)

    /// Reads up to the first newline (or the end of the stream); `nil` when the peer sent nothing.
    /// More than `maximumLength` bytes without a newline is `tooLong`; still no newline after
    /// `deadline` is `tooSlow`.
    static func readLine(
        _ descriptor: Int32, maximumLength: Int, deadline: ContinuousClock.Instant? = nil
    ) throws(ControlLineError) -> Data? {
        var message = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let deadline, ContinuousClock.now > deadline { throw .tooSlow }
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(SystemError) in
                    try SystemError.retrying("read(control socket)") { read(descriptor, raw.baseAddress, raw.count) }
                }
            }
            let count: Int
            switch result {
            case .success(let read): count = read
            case .failure(let error): throw .system(error)
            }
            if count == 0 { return message.isEmpty ? nil : message }
            if let newline = buffer[..<count].firstIndex(of: UInt8(ascii: "\n")) {
                message.append(contentsOf: buffer[..<newline])
                return message
            }
            message.append(contentsOf: buffer[..<count])
            if message.count > maximumLength { throw .tooLong }
        }
    }

    /// Writes a message and its newline, all of it.
    static func writeLine(_ descriptor: Int32, _ message: Data) throws(SystemError) {
        var bytes = [UInt8](message)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let count = try bytes.withUnsafeBytes { raw in
                Result { () throws(SystemError) in
                    // MSG_NOSIGNAL: a peer that hung up must give EPIPE, not kill the agent with SIGPIPE.
                    try SystemError.retrying("send(control socket)") {
                        send(descriptor, raw.baseAddress?.advanced(by: written), raw.count - written, Int32(MSG_NOSIGNAL))
                    }
                }
            }.get()
            written += count
        }
    }
}

/// Why a line could not be read.
enum ControlLineError: Error {
    /// The peer sent more than the reader's limit without a newline.
    case tooLong
    /// The peer had not sent its whole line by the reader's deadline.
    case tooSlow
    /// A system call failed (a timeout reads as `EAGAIN`).
    case system(SystemError)
}
