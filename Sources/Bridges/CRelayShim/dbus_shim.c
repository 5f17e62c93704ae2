#define _GNU_SOURCE
#include "relay_dbus_shim.h"

#include <pthread.h>
#include <string.h>
#include <sys/eventfd.h>

int relay_dbus_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

void relay_dbus_name_current_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    pthread_setname_np(pthread_self(), truncated);
}
