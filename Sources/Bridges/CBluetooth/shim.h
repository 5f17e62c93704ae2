#ifndef RELAY_CBLUETOOTH_SHIM_H
#define RELAY_CBLUETOOTH_SHIM_H
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/rfcomm.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#endif
