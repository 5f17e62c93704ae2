import Glibc

/// A failed system call: the call's name and the `errno` it left, read immediately after it.
///
/// Every system call in Relay's adapters goes through `SystemError.retrying`, so `EINTR` is
/// retried in one place and no caller reads `errno` late (after another call may have overwritten it).
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, with its subject where that helps: `open(/dev/fb1)`.
    public var call: String
    /// The `errno` value the call left.
    public var code: Int32

    /// Creates an error for a call and an `errno` value.
    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// `open(/dev/fb1): No such file or directory (errno 2)`.
    public var description: String {
        "\(call): \(Self.describe(code))"
    }

    /// The text of an `errno` value: `No such file or directory (errno 2)`.
    public static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Runs a call that returns -1 on failure, retrying while it is interrupted by a signal.
    @discardableResult
    public static func retrying<Result: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> Result) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw SystemError(call: call(), code: code) }
        }
    }
}
