/// The names BlueZ 5 uses on the system bus (doc/*-api.txt of BlueZ 5.66).
public enum BlueZ {
    /// bluetoothd's well-known bus name.
    public static let service = "org.bluez"
    /// The object that implements `AgentManager1` and `ProfileManager1`.
    public static let managerPath = "/org/bluez"

    /// `org.bluez.ProfileManager1`.
    public static let profileManager = "org.bluez.ProfileManager1"
    /// `org.bluez.AgentManager1`.
    public static let agentManager = "org.bluez.AgentManager1"
    /// `org.bluez.Adapter1`.
    public static let adapter = "org.bluez.Adapter1"
    /// `org.bluez.Device1`.
    public static let device = "org.bluez.Device1"
    /// `org.bluez.Profile1`, implemented by Relay.
    public static let profile = "org.bluez.Profile1"
    /// `org.bluez.Agent1`, implemented by Relay.
    public static let agent = "org.bluez.Agent1"
    /// `org.freedesktop.DBus.ObjectManager`, on `/`.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// `org.freedesktop.DBus.Properties`.
    public static let properties = "org.freedesktop.DBus.Properties"

    /// The errors BlueZ's agents and profiles answer with, and that its methods return.
    public enum ErrorName {
        /// An agent's "no" (agent-api.txt).
        public static let rejected = "org.bluez.Error.Rejected"
        /// An agent's request was cancelled.
        public static let canceled = "org.bluez.Error.Canceled"
        /// `RegisterProfile` for an object already registered.
        public static let alreadyExists = "org.bluez.Error.AlreadyExists"
        /// `Device1.Pair` refused by the remote or by an agent.
        public static let authenticationRejected = "org.bluez.Error.AuthenticationRejected"
        /// `Device1.Pair` cancelled.
        public static let authenticationCanceled = "org.bluez.Error.AuthenticationCanceled"
        /// `Device1.Pair` failed.
        public static let authenticationFailed = "org.bluez.Error.AuthenticationFailed"
        /// `ConnectProfile` for a service the device does not offer.
        public static let notAvailable = "org.bluez.Error.NotAvailable"
        /// A generic failure.
        public static let failed = "org.bluez.Error.Failed"
        /// The adapter is still carrying out an earlier change of a setting; try again shortly.
        public static let busy = "org.bluez.Error.Busy"
        /// The same operation is under way.
        public static let inProgress = "org.bluez.Error.InProgress"
    }
}
