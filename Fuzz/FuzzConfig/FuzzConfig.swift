import Foundation
import RelayConfig
import RelayFuzzing

/// Configuration files from arbitrary bytes: the TOML reader, the writer's round trip, both
/// agents' schemas and the phone's filter rules (their patterns compiled) with their error messages.
func fuzzConfig(_ data: Data) {
    let bytes = Array(data)
    guard let table = try? TOML.parse(bytes: bytes, file: "fuzz.toml") else { return }
    // What was read, written and read again is the same table (nan included).
    let written = TOMLWriter.document(table)
    let unbounded = TOMLLimits(maximumBytes: .max, maximumDepth: TOMLLimits.standard.maximumDepth)
    guard let again = try? TOML.parse(written, limits: unbounded) else {
        fatalError("the writer's output does not parse:\n\(written)")
    }
    precondition(again == table, "the writer's round trip changed the table:\n\(written)")
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        _ = try PhoneConfiguration(text: text, path: "/fuzz/phone.toml")
    } catch {
        _ = error.description
    }
    do {
        _ = try WearableConfiguration(text: text, path: "/fuzz/wearable.toml")
    } catch {
        _ = error.description
    }
    do {
        for rule in try FilterRuleFile(text: text, path: "/fuzz/filters.toml").rules {
            _ = rule.title?.matches(text)
            _ = rule.body?.matches(text)
        }
    } catch {
        _ = error.description
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzConfig(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzConfig_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzConfig_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzConfig)) }
    }
#endif
