import Foundation
import RelayCore
import RelayFuzzing
import RelayWire
import WearableAgent

/// What the wearable does with the phone's log: apply each change to the replica, with the link
/// going up and down and the clock moving (and stepping back) between them, firing the phone's
/// schedule while apart. Input: records of a 2-byte length and a serialized `Change`, each
/// preceded by one control byte (bit 0: link up, bit 1: catch-up, bits 2–7: minutes to move
/// the clock, 63 stepping it back an hour).
func fuzzReplica(_ data: Data) {
    var replica = Replica()
    var now = Date(timeIntervalSince1970: 1_800_000_000)
    var rest = data[...]
    var linkUp = true
    // Every input of the policy in play: quiet hours, a mute, the gap, a thread's burst.
    let policy = AlertPolicy(quietHours: QuietHours(start: 22 * 60, end: 7 * 60, timeZone: .gmt), mutes: [Mute(.app("App 1"))])
    var memory = AlertMemory()
    while rest.count >= 3 {
        let control = rest[rest.startIndex]
        let length = Int(rest[rest.startIndex + 1]) << 8 | Int(rest[rest.startIndex + 2])
        rest = rest.dropFirst(3)
        let body = rest.prefix(length)
        rest = rest.dropFirst(body.count)
        let minutes = Int(control >> 2)
        now = minutes == 63 ? now.addingTimeInterval(-3600) : now.addingTimeInterval(Double(minutes) * 60)
        let up = control & 1 == 1
        if up != linkUp {
            linkUp = up
            _ = replica.linkChanged(at: now)
        }
        if let change = try? Relay_V1_Change(serializedBytes: Data(body)) {
            var context = AlertContext(policy: policy, now: now)
            context.memory = memory
            let effects = replica.apply(change, catchUp: control & 2 == 2, context: context)
            memory.note(effects, in: replica.contents, at: now)
        }
        if !linkUp {
            var context = AlertContext(policy: policy, now: now)
            context.memory = memory
            _ = replica.fireDue(context: context)
            _ = replica.nextLocalFireDate()
        }
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzReplica(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzReplica_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzReplica_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzReplica)) }
    }
#endif
