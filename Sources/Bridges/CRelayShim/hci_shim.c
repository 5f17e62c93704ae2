#include "relay_hci_shim.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

// hcitool's own wait for the controller's answer.
static const int relay_hci_timeout_ms = 1000;

int relay_hci_read_rssi(int dev_id, const char *address, int8_t *rssi) {
    // The kernel names adapters by a 16-bit index; HCI_DEV_NONE (0xffff) means "no adapter".
    if (dev_id < 0 || dev_id >= HCI_DEV_NONE || address == NULL || rssi == NULL || bachk(address) != 0) {
        return -EINVAL;
    }
    bdaddr_t bdaddr;
    if (str2ba(address, &bdaddr) != 0) {
        return -EINVAL;
    }

    int dd = hci_open_dev(dev_id);
    if (dd < 0) {
        return -errno;
    }
    // HCIGETCONNINFO fills one hci_conn_info after the request's header.
    struct hci_conn_info_req *request = calloc(1, sizeof *request + sizeof(struct hci_conn_info));
    if (request == NULL) {
        hci_close_dev(dd);
        return -ENOMEM;
    }
    bacpy(&request->bdaddr, &bdaddr);
    request->type = ACL_LINK;

    int result;
    do {
        result = ioctl(dd, HCIGETCONNINFO, (unsigned long)request);
    } while (result < 0 && errno == EINTR);
    if (result < 0) {
        int code = errno;
        free(request);
        hci_close_dev(dd);
        return -code;
    }
    uint16_t handle = htobs(request->conn_info->handle);
    free(request);

    // hci_read_rssi retries interrupted waits itself; it sets EIO for a non-zero HCI status.
    int8_t value = 0;
    if (hci_read_rssi(dd, handle, &value, relay_hci_timeout_ms) < 0) {
        int code = errno;
        hci_close_dev(dd);
        return code != 0 ? -code : -EIO;
    }
    hci_close_dev(dd);
    *rssi = value;
    return 0;
}
