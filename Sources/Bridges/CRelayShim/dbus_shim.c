#define _GNU_SOURCE
#include "relay_dbus_shim.h"

#include <sys/eventfd.h>

int relay_dbus_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
