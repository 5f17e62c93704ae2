import Crypto
import Foundation
import Logging
import PhoneAgent
import RelayConformance
import RelayLink
import RelayLinkRuntime
import RelayStore
import RelayTestSupport
import RelayTransport
import RelayWire
import Testing
import WearableAgent
import WearableUI

/// A phone that completes the pairing handshake but whose code nobody confirms, and sends a
/// notification for the wearable's log with its Hello, frame by frame (a Relay phone sends
/// none on a pairing connection, PROTOCOL.md §7.4; a hostile one may).
private enum UnconfirmedPhone {
    /// Connects to the harness's wearable in pairing mode, sends the Hello and the change in
    /// one write, and waits until the wearable ends the connection.
    static func connect(to harness: AgentLinkHarness) async throws {
        let phoneKey = Curve25519.KeyAgreement.PrivateKey()
        let target = ConformanceTarget(
            reach: .listensAt(.unix(path: harness.folder + "/link.sock")), localKey: phoneKey.rawRepresentation,
            peerKey: Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation, patience: .seconds(30))
        try await target.connect { script in
            _ = try await script.openPairing(phoneKey: phoneKey, wearableKey: nil)
            var hello = Relay_V1_Envelope()
            hello.hello = WireScript.pairingHello(role: .phone)
            var planted = Relay_V1_Envelope()
            planted.seq = 1
            planted.change = .with {
                $0.upsert = .with {
                    $0.key = 1
                    $0.revision = 1
                    $0.mayAlert = true
                    $0.content.title = "Planted"
                }
            }
            try await script.sendFrames([try script.sealed(hello), try script.sealed(planted)])
            _ = try await script.expectClose("§7.4", "a change on a pairing connection")
        }
    }
}

@Suite("A phone whose pairing code nobody confirmed", .timeLimit(.minutes(1)))
struct UnconfirmedPairingTests {
    @Test("nothing it sends is shown, alerted or stored: its changes end the connection")
    func changesBeforeConfirmationAreRefused() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            // Returns only because the wearable ends the connection: an accepted session would
            // go on with heartbeats until the time limit.
            try await UnconfirmedPhone.connect(to: harness)
            #expect(!harness.screen.elements.contains { if case .upsert = $0 { true } else { false } })
            #expect(harness.wearable.status.shown == 0)
        }
    }
}

@Suite("A stranger during a pairing", .timeLimit(.minutes(1)))
struct PairingTakeoverTests {
    @Test("a stranger refused while a pairing waits gets nothing it sent with its hello applied")
    func whatARefusedConnectionSentIsIgnored() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            _ = try await harness.phone.beginPairing()
            #expect(await harness.screen.wait(until: { $0.contains { if case .pairingCode = $0 { true } else { false } } }))
            // The stranger's hello comes with a change in the same read; the hello is refused
            // ("another pairing is in progress"), and the change must not count either.
            try await UnconfirmedPhone.connect(to: harness)
            #expect(!harness.screen.elements.contains { if case .upsert = $0 { true } else { false } })
            #expect(harness.wearable.status.shown == 0)
            // The pairing under way is untouched.
            #expect(harness.wearable.isPairing)
        }
    }

    @Test("a second device cannot take over a pairing under way, and an answer to another code pairs nothing")
    func oneAtATimeAndTheAnswerIsForTheCodeShown() async throws {
        try await AgentLinkHarness.with { harness in
            await harness.start()
            let offer = try await harness.phone.beginPairing()
            let screen = harness.screen
            #expect(await screen.wait(until: { $0.contains { if case .pairingCode = $0 { true } else { false } } }))
            let shown = screen.elements.compactMap { if case .pairingCode(let code) = $0 { code } else { nil } }.last ?? ""
            #expect(shown == offer.code)

            // A stranger's pairing is turned away while this one waits for the user.
            let stranger = try harness.stranger()
            defer { stranger.committer.stop() }
            do {
                _ = try await stranger.beginPairing(timeout: .seconds(10))
                Issue.record("a second pairing took the wearable's screen")
            } catch {
                #expect("\(error)".contains("another pairing is in progress"))
            }

            // Select pressed for some other code (as a new one took the screen) decides nothing.
            harness.wearable.confirmPairing(true, code: "000000")
            #expect(harness.wearable.isPairing)
            #expect(harness.wearable.status.partnerFingerprint == nil)
            // The answer for the code shown pairs.
            harness.wearable.confirmPairing(true, code: shown)
            _ = try await harness.phone.finishPairing(accepted: true)
            #expect(await harness.waitUntilConnected())
            #expect(harness.wearable.status.partnerFingerprint != nil)
        }
    }
}

@Suite("A pairing nobody confirms", .timeLimit(.minutes(1)))
struct PairingTimeoutTests {
    @Test("the wearable gives it up after its time, and the next pairing can take the screen")
    func anUnansweredPairingEndsAndFreesTheWearable() async throws {
        let clock = ManualLinkClock()
        try await AgentLinkHarness.with(pairingTimeout: Self.timeout, linkClock: clock) { harness in
            await harness.start()
            _ = try await harness.phone.beginPairing()
            #expect(await harness.screen.wait(until: { $0.contains { if case .pairingCode = $0 { true } else { false } } }))
            let shown = Self.afterCode(harness.screen.elements)
            // Nobody presses anything: once its time is up, the wearable leaves the code screen by itself.
            clock.advance(by: Self.timeout)
            #expect(await harness.screen.wait { $0.dropFirst(shown).contains(.pairingFinished) })
            #expect(!harness.wearable.isPairing)
            #expect(harness.wearable.status.partnerFingerprint == nil)
            // The phone heard: its pairing ended with the reason.
            await #expect(throws: (any Error).self) { _ = try await harness.phone.finishPairing(accepted: true, timeout: .seconds(10)) }

            let codes = try await harness.pair()
            #expect(codes.phone == codes.wearable)
            #expect(await harness.waitUntilConnected())
        }
    }

    @Test("answered on the wearable but never on the phone, it ends after the phone's time too")
    func aPairingTheUserAnsweredStillEnds() async throws {
        // The wearable's time moves only when the test moves it: the answer comes before the
        // first timeout however busy the machine is, and the test is about what happens after it.
        let clock = ManualLinkClock()
        try await AgentLinkHarness.with(pairingTimeout: Self.timeout, linkClock: clock) { harness in
            await harness.start()
            _ = try await harness.phone.beginPairing()
            #expect(await harness.screen.wait(until: { $0.contains { if case .pairingCode = $0 { true } else { false } } }))
            let code = harness.screen.elements.compactMap { if case .pairingCode(let code) = $0 { code } else { nil } }.last ?? ""
            let shown = Self.afterCode(harness.screen.elements)
            harness.wearable.confirmPairing(true, code: code)
            try #require(harness.wearable.isPairing, "the pairing ended before the wearable's user answered")
            // The phone's user never answers, through the first timeout and the second.
            clock.advance(by: Self.timeout)
            clock.advance(by: Self.timeout)
            #expect(await harness.screen.wait { $0.dropFirst(shown).contains(.pairingFinished) })
            #expect(!harness.wearable.isPairing)
            #expect(harness.wearable.status.partnerFingerprint == nil)
        }
    }

    /// The wearable's pairing timeout, on its manual clock: both timeouts together stay under the
    /// link's heartbeat (5 s), so moving time through them changes nothing else on the link.
    static let timeout = Duration.seconds(2)

    /// Where the screen's events after the (last) pairing code begin: what came after it counts
    /// even if it came before the test looked (the wearable's timer runs meanwhile).
    private static func afterCode(_ elements: [UIEvent]) -> Int {
        elements.lastIndex { if case .pairingCode = $0 { true } else { false } }.map { $0 + 1 } ?? elements.count
    }
}
