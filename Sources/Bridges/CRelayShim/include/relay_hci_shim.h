// Reading the RSSI of a connected Bluetooth link through the adapter's HCI socket, as
// `hcitool rssi` does: HCIGETCONNINFO is a macro over a variable-length struct, which Swift
// cannot build, so the whole sequence lives here and returns one error code.
#ifndef RELAY_HCI_SHIM_H
#define RELAY_HCI_SHIM_H

#include <stdint.h>

/// The RSSI (dBm, as the controller reports it) of the ACL link to `address` ("01:23:45:67:89:AB")
/// on adapter `dev_id` (N of "hciN"), waiting at most 1 s for the controller. Returns 0 and sets
/// `*rssi`, or -errno: -EINVAL for a bad argument, -EAFNOSUPPORT without Bluetooth sockets,
/// -ENODEV for no such adapter, -ENOENT when no ACL link to `address` is up, -ENETDOWN when the
/// adapter is down, -EPERM when the kernel refuses the command, -ETIMEDOUT when the controller
/// does not answer, -EIO when it answers with an error status.
int relay_hci_read_rssi(int dev_id, const char *address, int8_t *rssi);

#endif
