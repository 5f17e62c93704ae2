import RelayDBus
import Testing

@Suite("Values, signatures and match rules (no bus)")
struct ValueTests {
    @Test(arguments: ["", "s", "a{sv}", "(ia(ss))", "aai", "a{oa{sa{sv}}}", "ybnqiuxtdsogh", "av", "a(yv)"])
    func validSignatures(_ text: String) throws {
        #expect(try DBusSignature(text).rawValue == text)
    }

    @Test(arguments: [
        "a", "{sv}", "a{vs}", "()", "(s", "s)", "a{s}", "a{sss}", "z", "a{(s)s}", "\u{0}",
        String(repeating: "a", count: 33) + "i", String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33),
        String(repeating: "i", count: 256),
    ])
    func invalidSignatures(_ text: String) {
        #expect { try DBusSignature(text) } throws: { ($0 as? DBusError)?.name == .invalidSignature }
    }

    @Test func completeTypesSplitASignature() throws {
        let signature = try DBusSignature("sa{sv}(ia(ss))as")
        #expect(signature.completeTypes.map(\.rawValue) == ["s", "a{sv}", "(ia(ss))", "as"])
        #expect(!signature.isSingleCompleteType)
        #expect(try DBusSignature("a{sv}").isSingleCompleteType)
    }

    @Test func valueSignatures() throws {
        let hints: [String: DBusValue] = ["urgency": .byte(2)]
        #expect(DBusValue(hints).signature.rawValue == "a{sv}")
        #expect(DBusValue([String]()).signature.rawValue == "as")
        #expect(DBusValue([[UInt8]]()).signature.rawValue == "aay")
        #expect(DBusValue.structure([.string("a"), .int32(1), DBusValue(["k": "v"])]).signature.rawValue == "(sia{ss})")
        #expect(DBusValue.variant(.uint64(1)).signature == .variant)
    }

    @Test func swiftConversionsRoundTrip() throws {
        let hints: [String: DBusValue] = ["urgency": .byte(2), "category": .string("im")]
        #expect(try DBusValue(hints).decode([String: DBusValue].self) == hints)
        #expect(try DBusValue(["a", "b"]).decode([String].self) == ["a", "b"])
        let flags: [UInt32: [Bool]] = [1: [true]]
        #expect(try DBusValue(flags).decode([UInt32: [Bool]].self) == flags)
        let path = try DBusObjectPath("/org/relay/Test")
        #expect(try DBusValue(path).decode(DBusObjectPath.self) == path)
    }

    @Test func decodingTheWrongTypeThrowsInsteadOfTrapping() {
        let isInvalidArgs: (any Error) -> Bool = { ($0 as? DBusError)?.name == .invalidArgs }
        #expect(performing: { try DBusValue.int32(1).decode(String.self) }, throws: isInvalidArgs)
        #expect(performing: { try DBusValue(["a"]).decode([Int32].self) }, throws: isInvalidArgs)
        #expect(performing: { try DBusValue.string("x").decode([String: DBusValue].self) }, throws: isInvalidArgs)
        #expect(performing: { try DBusValue.string("x").decode(DBusValue.self) }, throws: isInvalidArgs)
        #expect(performing: { try [DBusValue.string("x")].decode(3, as: String.self) }, throws: isInvalidArgs)
    }

    @Test func objectPathValidation() {
        for valid in ["/", "/a", "/org/relay/Test_1"] { #expect(throws: Never.self) { try DBusObjectPath(valid) } }
        for invalid in ["", "a", "/a/", "//", "/a//b", "/a-b", "/ä"] {
            #expect(throws: DBusError.self) { try DBusObjectPath(invalid) }
        }
    }

    @Test func matchRuleTextEscapesQuotes() {
        let rule = DBusMatchRule(
            kind: .signal, sender: "org.relay.Sender", interface: "org.relay.I", member: "Changed",
            path: "/org/relay", arguments: [0: "don't", 2: "x"], argumentPaths: [1: "/a/"])
        #expect(
            rule.description
                == "type='signal',sender='org.relay.Sender',interface='org.relay.I',member='Changed',"
                + "path='/org/relay',arg0='don'\\''t',arg2='x',arg1path='/a/'")
    }

    @Test func matchRulesMatchLocally() throws {
        var message = DBusMessage(
            kind: .signal, serial: 1, replySerial: nil, sender: ":1.7", destination: nil,
            path: try DBusObjectPath("/org/relay/Test/child"), interface: "org.relay.Test", member: "Ping",
            errorName: nil, noReplyExpected: true,
            arguments: [.string("org.relay.Name.Sub"), .objectPath(try DBusObjectPath("/a/b"))])
        #expect(DBusMatchRule.signal(interface: "org.relay.Test", member: "Ping").matches(message))
        #expect(!DBusMatchRule.signal(member: "Pong").matches(message))
        #expect(DBusMatchRule(pathNamespace: "/org/relay").matches(message))
        #expect(!DBusMatchRule(pathNamespace: "/org/rel").matches(message))
        #expect(DBusMatchRule(arg0Namespace: "org.relay.Name").matches(message))
        #expect(!DBusMatchRule(arg0Namespace: "org.relay.Nam").matches(message))
        #expect(DBusMatchRule(argumentPaths: [1: "/a/"]).matches(message))
        #expect(DBusMatchRule(sender: ":1.7").matches(message))
        // A well-known sender cannot match without knowing its owner.
        #expect(!DBusMatchRule(sender: "org.relay.Sender").matches(message))
        message.kind = .methodCall
        #expect(!DBusMatchRule.signal().matches(message))
        #expect(DBusMatchRule(kind: nil).matches(message))
    }
}
