/// The version of Relay shared by every executable and announced on the wire.
public enum RelayVersion {
    /// The release version, following semantic versioning.
    public static let string = "0.1.0"
}
