import RelayNoise
import Testing

@Suite("Protocol names and patterns")
struct ProtocolNameTests {
    @Test("Every supported name parses to its pattern and prints back unchanged", arguments: NoiseHandshakePattern.fundamental.map(\.name))
    func roundTrip(patternName: String) throws {
        let name = "Noise_\(patternName)_25519_ChaChaPoly_SHA256"
        let parsed = try NoiseProtocolName(name)
        #expect(parsed.pattern.name == patternName)
        #expect(parsed.description == name)
    }

    @Test(
        "Unsupported or malformed names are refused with the offending part",
        arguments: [
            ("Noise_XXpsk3_25519_ChaChaPoly_SHA256", NoiseError.unsupportedPatternModifier("psk3")),
            ("Noise_XXfallback+psk0_25519_ChaChaPoly_SHA256", .unsupportedPatternModifier("fallback+psk0")),
            ("Noise_NNhfs_25519_ChaChaPoly_SHA256", .unsupportedPatternModifier("hfs")),
            ("Noise_N_25519_ChaChaPoly_SHA256", .unsupportedHandshakePattern("N")),
            ("Noise_I1K_25519_ChaChaPoly_SHA256", .unsupportedHandshakePattern("I1K")),
            ("Noise_X1K1psk0_25519_ChaChaPoly_SHA256", .unsupportedPatternModifier("psk0")),
            ("Noise_XX_448_ChaChaPoly_SHA256", .unsupportedDHFunction("448")),
            ("Noise_XX_25519_AESGCM_SHA256", .unsupportedCipherFunction("AESGCM")),
            ("Noise_XX_25519_ChaChaPoly_BLAKE2s", .unsupportedHashFunction("BLAKE2s")),
            ("Noise_XX_25519_ChaChaPoly_SHA512", .unsupportedHashFunction("SHA512")),
            ("Noise_XX_25519_ChaChaPoly", .invalidProtocolName("Noise_XX_25519_ChaChaPoly")),
            ("Noise_XX_25519_ChaChaPoly_SHA256_", .invalidProtocolName("Noise_XX_25519_ChaChaPoly_SHA256_")),
            ("NoiseSocket_XX_25519_ChaChaPoly_SHA256", .invalidProtocolName("NoiseSocket_XX_25519_ChaChaPoly_SHA256")),
            ("Noise_xx_25519_ChaChaPoly_SHA256", .invalidProtocolName("Noise_xx_25519_ChaChaPoly_SHA256")),
            ("", .invalidProtocolName("")),
        ])
    func refused(name: String, expected: NoiseError) {
        #expect(throws: expected) { _ = try NoiseProtocolName(name) }
    }

    @Test("Error descriptions are readable sentences")
    func errorDescriptions() {
        #expect(NoiseError.unsupportedDHFunction("448").description.contains("448"))
        #expect(NoiseError.missingKey(.remoteStatic).description.contains("remote static key"))
        #expect(NoiseError.authenticationFailed.description.contains("replayed"))
    }

    @Test("The pattern table holds the twelve fundamental interactive patterns once each")
    func patternTable() {
        let names = NoiseHandshakePattern.fundamental.map(\.name)
        #expect(names == ["NN", "NK", "NX", "KN", "KK", "KX", "XN", "XK", "XX", "IN", "IK", "IX"])
        for pattern in NoiseHandshakePattern.fundamental {
            #expect(NoiseHandshakePattern.named(pattern.name) == pattern)
        }
        #expect(NoiseHandshakePattern.named("N") == nil)
        #expect(NoiseHandshakePattern.xx.description == "XX:\n  -> e\n  <- e, ee, s, es\n  -> s, se")
    }

    /// The validity rules of spec §7.3, plus the shape every fundamental pattern shares.
    @Test("Each pattern is valid", arguments: NoiseHandshakePattern.fundamental.map(\.name))
    func patternValidity(patternName: String) throws {
        let pattern = try #require(NoiseHandshakePattern.named(patternName))
        var hasEphemeral: Set<NoiseRole> = []
        var hasStatic: Set<NoiseRole> = []
        for role in NoiseRole.allCases {
            let preMessage = pattern.preMessage(of: role)
            #expect(preMessage.allSatisfy { $0 == .s })
            if preMessage.contains(.s) { hasStatic.insert(role) }
        }
        #expect(pattern.messages.count >= 2)

        for (index, message) in pattern.messages.enumerated() {
            #expect(message.sender == (index.isMultiple(of: 2) ? .initiator : .responder))
            for token in message.tokens {
                switch token {
                case .e:
                    #expect(hasEphemeral.insert(message.sender).inserted, "\(message.sender) sends e twice")
                case .s:
                    #expect(hasStatic.insert(message.sender).inserted, "\(message.sender) sends s twice")
                case .ee:
                    #expect(hasEphemeral.isSuperset(of: [.initiator, .responder]))
                case .es:
                    #expect(hasEphemeral.contains(.initiator) && hasStatic.contains(.responder))
                case .se:
                    #expect(hasStatic.contains(.initiator) && hasEphemeral.contains(.responder))
                case .ss:
                    #expect(hasStatic.isSuperset(of: [.initiator, .responder]))
                }
            }
            // Each party's first message opens with its ephemeral key.
            if index < 2 { #expect(message.tokens.first == .e) }
        }
        #expect(hasEphemeral == [.initiator, .responder])
        // A fundamental pattern performs ee, and es or se whenever the corresponding static key exists.
        let allTokens = pattern.messages.flatMap(\.tokens)
        #expect(allTokens.contains(.ee))
        if hasStatic.contains(.initiator) { #expect(allTokens.contains(.se)) }
        if hasStatic.contains(.responder) { #expect(allTokens.contains(.es)) }
    }
}
