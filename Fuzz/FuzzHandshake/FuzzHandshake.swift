import Foundation
import RelayFuzzing
import RelayLink
import RelayWire

/// Fixed keys, so that inputs replay identically.
let responderKey = try! StaticKeyPair(privateKey: Data(repeating: 0x42, count: 32))
let partnerKey = try! StaticKeyPair(privateKey: Data(repeating: 0x17, count: 32)).publicKey

/// The wearable's side of the handshake under arbitrary frames. An even first byte puts a
/// valid pairing offer in front, so the fuzzer reaches the Noise messages, not only the preamble.
func fuzzHandshake(_ data: Data) {
    guard let selector = data.first else { return }
    var handshake = LinkHandshake(
        responding: .init(pairable: selector & 2 == 0, partnerKey: selector & 4 == 0 ? partnerKey : nil),
        localKey: responderKey)
    var frames: [Data] = []
    if selector & 1 == 0 {
        frames.append(Preamble.Offer(mode: selector & 8 == 0 ? .pair : .session).encoded)
    }
    var decoder = FrameDecoder()
    decoder.append(data.dropFirst())
    while let frame = try? decoder.nextFrame() { frames.append(frame) }
    for frame in frames {
        for step in handshake.receive(frame) {
            if case .failed = step { return }
        }
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzHandshake(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzHandshake_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzHandshake_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzHandshake)) }
    }
#endif
