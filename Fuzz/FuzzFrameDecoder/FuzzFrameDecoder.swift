import Foundation
import RelayFuzzing
import RelayWire

/// The frame decoder under arbitrary bytes in arbitrary splits.
func fuzzFrameDecoder(_ data: Data) {
    var decoder = FrameDecoder(maximumLength: 1024)
    for chunk in ChunkedInput(data) {
        decoder.append(chunk)
        do {
            while let frame = try decoder.nextFrame() {
                precondition(!frame.isEmpty && frame.count <= 1024, "the decoder returned an impossible frame")
            }
        } catch {
            return
        }
    }
    try? decoder.finish()
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzFrameDecoder(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzFrameDecoder_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzFrameDecoder_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzFrameDecoder)) }
    }
#endif
