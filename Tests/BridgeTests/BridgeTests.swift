import CBluetooth
import CDBus
import CFreeType
import CRelayShim
import Testing

@Test func dbusTypes() {
  print(RELAY_DBUS_TYPE_STRING, RELAY_DBUS_TYPE_INVALID, type(of: RELAY_DBUS_TYPE_ARRAY))
}
