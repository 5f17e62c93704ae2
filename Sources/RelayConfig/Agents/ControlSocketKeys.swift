/// The control-socket key both agents share.
public enum ControlSocketKeys {
    /// `control_group`.
    public static let controlGroup: ConfigKey<String> = .string(
        "control_group", .text(maximumLength: 32), flag: "--control-group",
        "A group whose members may use the control socket besides the agent's own user; the socket becomes 0660 and "
            + "its directory 0750, both the group's. The packaged system services use \"relay\". Empty: only the agent's own user.")
}
