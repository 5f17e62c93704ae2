/// What one of `relayctl doctor`'s checks found: fine, a problem with the command that fixes it,
/// or not applicable here (with why).
struct DoctorFinding: Encodable, Sendable, Equatable {
    /// Whether the check passed.
    enum Status: String, Encodable, Sendable {
        case ok, problem, skipped
    }

    /// The area: `bluetooth`, `dbus`, `framebuffer`, `keys`, `vibrator`, `clock`, `configuration`,
    /// `services`, `state`.
    var area: String
    /// What was checked, in a few words.
    var check: String
    var status: Status
    /// What was found.
    var detail: String
    /// For a problem: what to run or change.
    var fix: String?

    static func ok(_ area: String, _ check: String, _ detail: String) -> DoctorFinding {
        DoctorFinding(area: area, check: check, status: .ok, detail: detail, fix: nil)
    }

    static func problem(_ area: String, _ check: String, _ detail: String, fix: String) -> DoctorFinding {
        DoctorFinding(area: area, check: check, status: .problem, detail: detail, fix: fix)
    }

    static func skipped(_ area: String, _ check: String, _ why: String) -> DoctorFinding {
        DoctorFinding(area: area, check: check, status: .skipped, detail: why, fix: nil)
    }

    /// One line for people: `ok      bluetooth  adapter: hci0 is on`, the fix indented below.
    var text: String {
        let head = "\(status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))\(area.padding(toLength: 14, withPad: " ", startingAt: 0))\(check): \(detail)"
        return fix.map { head + "\n" + String(repeating: " ", count: 22) + "fix: " + $0 } ?? head
    }
}
