import Glibc
public import RelaySystem

/// Why a control request could not be made or served, in words that say what to do.
public enum ControlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing listens at the path: the agent is not running (or uses another socket).
    case notRunning(agent: String, path: String, start: String)
    /// The socket's directory is not private to this user, so a socket in it cannot be trusted.
    case unsafeDirectory(path: String, reason: String)
    /// Another agent already serves this socket.
    case alreadyRunning(path: String)
    /// The path does not fit in `sockaddr_un` (108 bytes).
    case pathTooLong(String)
    /// The agent's reply was not a JSON response line.
    case malformedReply(String)
    /// The agent took no connection or gave no answer within the time (seconds).
    case timedOut(agent: String, seconds: Int)
    /// Another user's process listens at the path: nothing is sent to it.
    case notOurs(path: String, uid: UInt32)
    /// The agent was given a group to admit that it cannot give the socket to: it is not a member.
    case notInGroup(String, path: String)
    /// The socket's file or directory does not let this user in; `group` is the directory's
    /// group, which a system service admits (`nil` when it cannot be named).
    case accessDenied(agent: String, path: String, group: String?)
    /// A system call failed.
    case system(SystemError)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .notRunning(let agent, let path, let start):
            "\(agent) is not running: no control socket accepts connections at \(path); start it with: \(start) "
                + "(or pass --control-socket PATH if it uses another socket)"
        case .unsafeDirectory(let path, let reason):
            "refusing to use \(path) for the control socket: \(reason); remove it or pass --control-socket PATH in a private directory"
        case .alreadyRunning(let path):
            "another agent already serves the control socket at \(path); stop it first or pass --control-socket PATH"
        case .pathTooLong(let path):
            "the control socket path is longer than a Unix socket address allows (107 bytes): \(path)"
        case .malformedReply(let detail):
            "the agent sent a reply that is not a control response (\(detail)); are relayctl and the agent the same version?"
        case .timedOut(let agent, let seconds):
            "\(agent) did not answer within \(seconds) s; it may be stuck: look at its log, or restart it"
        case .notOurs(let path, let uid):
            "refusing to talk to \(path): the process listening there runs as uid \(uid), neither you, root nor the "
                + "\(ControlSocketPath.serviceUser) service account; "
                + "remove the socket or pass --control-socket PATH in a private directory"
        case .notInGroup(let group, let path):
            "cannot give group \(group) access to \(path): this agent (uid \(geteuid())) is not a member of \(group); "
                + "run it as a member (the packaged services run as relay:relay) or leave control_group empty"
        case .accessDenied(let agent, let path, let group):
            "you may not use \(agent)'s control socket at \(path) (permission denied): it admits the user it runs as"
                + (group.map { " and the members of group \($0): " + ControlGroup.joining($0) }
                    ?? "; run relayctl as that user")
        case .system(let error):
            error.description
        }
    }
}
