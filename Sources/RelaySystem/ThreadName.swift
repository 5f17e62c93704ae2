import CRelayShim

/// The name the kernel shows for a thread (`/proc/PID/task/TID/comm`, `top -H`, gdb), so that a
/// count of wake-ups or a profile by thread says which of the agent's threads it was.
/// Foundation's `Thread.name` does not reach the kernel on Linux.
public enum ThreadName {
    /// Names the calling thread; the kernel keeps the first 15 bytes.
    public static func setCurrent(_ name: String) {
        relay_name_current_thread(name)
    }
}
