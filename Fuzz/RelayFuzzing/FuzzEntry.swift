public import Foundation

/// What a fuzz target does with one input. Built two ways:
/// - with `-sanitize=fuzzer -DFUZZING`, libFuzzer calls `LLVMFuzzerTestOneInput`, which
///   each target defines to call its `FuzzEntry`;
/// - otherwise the target is a command that replays files (a committed corpus, or the
///   crash that became a regression test) through the same entry, so `make test` keeps
///   every past crash fixed.
public enum FuzzReplay {
    /// Replays every file named, or every file in every directory named; returns the
    /// process exit status (0 when every input ran without trapping).
    public static func main(_ arguments: [String], entry: (Data) -> Void) -> Int32 {
        var count = 0
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                print("fuzz replay: no such file or directory: \(argument)")
                return 2
            }
            let files =
                isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted()
                    .filter { !$0.hasPrefix(".") }.map { argument + "/" + $0 }
                : [argument]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                entry(data)
                count += 1
            }
        }
        print("fuzz replay: \(count) inputs ran cleanly")
        return 0
    }
}

/// Splits fuzz input into the pieces a stream would deliver: each piece's length comes
/// from one byte of the input, so the fuzzer explores partial and merged reads.
public struct ChunkedInput: Sequence, IteratorProtocol {
    private var data: Data.SubSequence

    /// Chunks of `data`.
    public init(_ data: Data) {
        self.data = data[...]
    }

    /// The next chunk, or `nil` at the end.
    public mutating func next() -> Data? {
        guard let first = data.first else { return nil }
        data = data.dropFirst()
        let length = Swift.min(Int(first) + 1, data.count)
        guard length > 0 else { return nil }
        let chunk = Data(data.prefix(length))
        data = data.dropFirst(length)
        return chunk
    }
}

#if FUZZING
    /// libFuzzer's driver, for targets whose `main` SwiftPM renames (`<Target>_main`).
    @_silgen_name("LLVMFuzzerRunDriver")
    private func llvmFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// Runs libFuzzer with the process's arguments and `callback` as the target.
    public func runFuzzer(
        argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt {
        var count = argc
        var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return llvmFuzzerRunDriver(&count, &vector, callback)
    }
#endif
