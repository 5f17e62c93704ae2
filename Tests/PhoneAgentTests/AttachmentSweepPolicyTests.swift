import PhoneAgent
import Testing

/// When relay-phone sweeps its attachment store, with time and the store's count passed in.
@Suite struct AttachmentSweepPolicyTests {
    let start = ContinuousClock.now

    @Test func hourlyItSparesTenMinutes() {
        var policy = AttachmentSweepPolicy(now: start, written: 0)
        #expect(policy.sweep(now: start + .seconds(3599), written: 5) == nil)
        #expect(policy.sweep(now: start + .seconds(3600), written: 5) == AttachmentSweepPolicy.grace)
        #expect(policy.sweep(now: start + .seconds(3610), written: 5) == nil, "the sweep counts as done")
    }

    /// An app posting image after image would fill the disk before the hour is out.
    @Test func aFloodOfNewFilesBringsASweepSparingOnlySeconds() {
        var policy = AttachmentSweepPolicy(now: start, written: 10)
        #expect(policy.sweep(now: start + .seconds(10), written: 10 + AttachmentSweepPolicy.floodFiles - 1) == nil)
        #expect(policy.sweep(now: start + .seconds(20), written: 10 + AttachmentSweepPolicy.floodFiles) == AttachmentSweepPolicy.floodGrace)
        #expect(policy.sweep(now: start + .seconds(30), written: 10 + AttachmentSweepPolicy.floodFiles + 5) == nil)
    }
}
