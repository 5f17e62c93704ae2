import Foundation
import Glibc
import RelayStore
import Testing

@Suite struct KeyStoreTests {
    private func temporaryState() throws -> StateDirectory {
        var template = Array((NSTemporaryDirectory() + "/relay-store-XXXXXX").utf8CString)
        let created = try #require(mkdtemp(&template))
        return StateDirectory(path: String(cString: created) + "/state")
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func keysAreCreatedOnceAndPrivate() throws {
        let state = try temporaryState()
        try state.prepare()
        #expect(mode(state.path) == 0o700)
        let store = KeyStore(directory: state)
        let first = try store.identity { Data(repeating: 7, count: 32) }
        let second = try store.identity { Data(repeating: 9, count: 32) }
        #expect(first == second)
        #expect(mode(state.file("identity.key")) == 0o600)
        #expect(try store.partner() == nil)
        try store.setPartner(Data(repeating: 1, count: 32))
        #expect(try store.partner() == Data(repeating: 1, count: 32))
        #expect(mode(state.file("partner.key")) == 0o600)
        try store.forgetPartner()
        #expect(try store.partner() == nil)
        try store.forgetPartner()
    }

    @Test func looseModesAndDamagedKeysAreRefusedWithAdvice() throws {
        let state = try temporaryState()
        try state.prepare()
        let store = KeyStore(directory: state)
        _ = try store.identity { Data(repeating: 7, count: 32) }
        chmod(state.file("identity.key"), 0o644)
        #expect {
            _ = try store.identity { Data(count: 32) }
        } throws: { error in
            "\(error)".contains("chmod go-rwx")
        }
        chmod(state.file("identity.key"), 0o600)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: state.file("partner.key")))
        chmod(state.file("partner.key"), 0o600)
        #expect {
            _ = try store.partner()
        } throws: { error in
            "\(error)".contains("unpair and pair again")
        }
        chmod(state.path, 0o755)
        #expect(throws: StoreError.self) { try state.prepare() }
    }

    @Test func theStateDirectoryFollowsSystemdThenXDG() {
        #expect(StateDirectory.resolve(role: "phone", environment: ["STATE_DIRECTORY": "/var/lib/relay:/var/lib/other"]).path == "/var/lib/relay")
        #expect(StateDirectory.resolve(role: "phone", environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"]).path == "/x/relay/phone")
        #expect(StateDirectory.resolve(role: "wearable", environment: ["HOME": "/h"]).path == "/h/.local/state/relay/wearable")
        #expect(StateDirectory.resolve(role: "phone", environment: ["STATE_DIRECTORY": "state", "HOME": "/h"]).path == "/h/.local/state/relay/phone")
    }
}
