import Foundation
import RelayCore
import RelayFuzzing
import RelayWire

/// What a receiver does with a decrypted envelope: decode it, map it to the model and
/// validate it, and schedule any trigger it carries.
func fuzzEnvelope(_ data: Data) {
    guard let envelope = try? Relay_V1_Envelope(serializedBytes: data) else { return }
    switch envelope.body {
    case .change(let change)?:
        switch change.kind {
        case .upsert(let upsert)?:
            _ = NotificationContent(upsert.content).validationProblems(at: "upsert.content")
        case .categoryUpsert(let upsert)?:
            _ = NotificationCategory(upsert.category).validationProblems(at: "category")
        case .scheduleUpsert(let schedule)?:
            guard let trigger = try? NotificationTrigger(schedule.trigger),
                let plan = try? TriggerSchedule(
                    trigger: trigger, scheduledAt: WireTime.date(schedule.scheduledAt % 10_000_000_000),
                    timeZone: TimeZone(identifier: schedule.timeZone) ?? .gmt)
            else { return }
            _ = plan.fireDates(after: WireTime.date(schedule.scheduledAt % 10_000_000_000), limit: 3)
        default:
            return
        }
    case .event(let event)?:
        if case .response(let response)? = event.kind {
            _ = NotificationResponse(response, date: WireTime.date(event.at % 10_000_000_000))
                .validationProblems(against: nil, at: "response")
        }
    default:
        return
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        fuzzEnvelope(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }

    // SwiftPM links an executable's entry point as `FuzzEnvelope_main`; libFuzzer's driver runs from it.
    @_cdecl("FuzzEnvelope_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
        runFuzzer(argc: argc, argv: argv, fuzzerTestOneInput)
    }
#else
    @main struct Replay {
        static func main() { exit(FuzzReplay.main(Array(CommandLine.arguments.dropFirst()), entry: fuzzEnvelope)) }
    }
#endif
