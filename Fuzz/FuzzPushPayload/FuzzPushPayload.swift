import Foundation
import RelayCore
import RelayFuzzing

/// Push payloads and the model's JSON forms from arbitrary bytes.
func fuzzPushPayload(_ data: Data) {
    if let payload = try? PushPayload.parse(data) {
        _ = payload.content.validationProblems(at: "content")
    }
    if let request = try? RelayJSON.decode(NotificationRequest.self, from: data) {
        _ = request.validationProblems(at: "request")
    }
    if let category = try? RelayJSON.decode(NotificationCategory.self, from: data) {
        _ = category.validationProblems(at: "category")
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzPushPayload(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzPushPayload_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzPushPayload_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzPushPayload)) }
    }
#endif
