// Helpers for RelayDBus: Linux facilities that the Glibc module does not export to Swift because
// their declarations sit behind _GNU_SOURCE or in headers outside the module map.
#ifndef RELAY_DBUS_SHIM_H
#define RELAY_DBUS_SHIM_H

/// A non-blocking, close-on-exec eventfd(2) with a zero counter, or -1 with errno set.
int relay_dbus_eventfd(void);

#endif
