import Glibc
import Testing

@testable import RelaySystem

/// The user and group databases: real entries, and an entry larger than the first buffer.
@Suite struct AccountsTests {
    @Test func rootIsFoundByNameAndByID() {
        #expect(Accounts.userName(0) == "root")
        #expect(Accounts.userID("root") == 0)
        #expect(Accounts.groupID(Accounts.groupName(0) ?? "") == 0)
        #expect(Accounts.userID("no-such-user-\(getpid())") == nil)
    }

    /// A group with thousands of members needs more than 16 KiB: the buffer grows until it fits.
    @Test func aLargeEntryIsReadWithABiggerBuffer() {
        var sizes: [Int] = []
        let value = Accounts.lookUp(0, { (_: inout Int, buffer, found: inout UnsafeMutablePointer<Int>?) -> Int32 in
            sizes.append(buffer.count)
            guard buffer.count >= 100_000 else { return ERANGE }
            found = UnsafeMutablePointer(bitPattern: 8)
            return 0
        }) { _ in "big" }
        #expect(value == "big")
        #expect(sizes == [16_384, 32_768, 65_536, 131_072])
    }
}
