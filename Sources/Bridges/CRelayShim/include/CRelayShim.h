// The few C facilities Swift cannot import directly: variadic calls (ioctl),
// function-like macros (EVIOCGNAME) and macros that expand to compound literals
// (BDADDR_ANY) and D-Bus type codes defined as casts. Everything else is imported from the system headers as is.
#ifndef RELAY_C_SHIM_H
#define RELAY_C_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <bluetooth/bluetooth.h>
#include <dbus/dbus.h>

/// ioctl(2) with a pointer argument; returns -1 and sets errno like ioctl itself.
int relay_ioctl_pointer(int fd, unsigned long request, void *argument);

/// ioctl(2) with an integer argument passed by value (FBIOBLANK); returns -1 and sets errno
/// like ioctl itself.
int relay_ioctl_value(int fd, unsigned long request, unsigned long value);

/// The EVIOCGNAME(length) request code, which reads an input device's name.
unsigned long relay_eviocgname(size_t length);

/// The EVIOCGBIT(EV_KEY, length) request code, which reads the key codes an input device has.
unsigned long relay_eviocgbit_key(size_t length);

/// EVIOCGRAB: with `grab` non-zero, this descriptor alone receives the device's events (the
/// console and other readers no longer do); returns -1 and sets errno like ioctl itself.
int relay_evdev_grab(int fd, int grab);

/// Whether an evdev device can rumble (EVIOCGBIT(EV_FF) has FF_RUMBLE): 1 or 0, or -1 with
/// errno set.
int relay_ff_can_rumble(int fd);

/// Uploads a rumble effect at full strength that plays for at most `length_ms` (EVIOCSFF; the
/// structure's layout differs between 32- and 64-bit boards, so it is built here); returns the
/// effect's id, or -1 with errno set.
int relay_ff_upload_rumble(int fd, unsigned short length_ms);

/// Starts (`play` 1) or stops (`play` 0) an uploaded effect by writing an EV_FF event to the
/// device (struct input_event, also of a size that differs between boards); 0, or -1 with
/// errno set.
int relay_ff_play(int fd, int effect, int play);

/// Whether the kernel's clock is synchronised (ntp_adjtime(2), which Swift's Glibc module does
/// not carry): 1 when it is, 0 when not (TIME_ERROR or STA_UNSYNC), -1 with errno set when the
/// state cannot be read. `estimated_error` receives the kernel's estimate in microseconds.
int relay_clock_synchronised(long *estimated_error);

/// BDADDR_ANY (00:00:00:00:00:00), the wildcard Bluetooth address.
bdaddr_t relay_bdaddr_any(void);

/// D-Bus type codes as constants Swift can import: the headers define them as casts.
enum {
    RELAY_DBUS_TYPE_INVALID = DBUS_TYPE_INVALID,
    RELAY_DBUS_TYPE_BYTE = DBUS_TYPE_BYTE,
    RELAY_DBUS_TYPE_BOOLEAN = DBUS_TYPE_BOOLEAN,
    RELAY_DBUS_TYPE_INT16 = DBUS_TYPE_INT16,
    RELAY_DBUS_TYPE_UINT16 = DBUS_TYPE_UINT16,
    RELAY_DBUS_TYPE_INT32 = DBUS_TYPE_INT32,
    RELAY_DBUS_TYPE_UINT32 = DBUS_TYPE_UINT32,
    RELAY_DBUS_TYPE_INT64 = DBUS_TYPE_INT64,
    RELAY_DBUS_TYPE_UINT64 = DBUS_TYPE_UINT64,
    RELAY_DBUS_TYPE_DOUBLE = DBUS_TYPE_DOUBLE,
    RELAY_DBUS_TYPE_STRING = DBUS_TYPE_STRING,
    RELAY_DBUS_TYPE_OBJECT_PATH = DBUS_TYPE_OBJECT_PATH,
    RELAY_DBUS_TYPE_SIGNATURE = DBUS_TYPE_SIGNATURE,
    RELAY_DBUS_TYPE_UNIX_FD = DBUS_TYPE_UNIX_FD,
    RELAY_DBUS_TYPE_ARRAY = DBUS_TYPE_ARRAY,
    RELAY_DBUS_TYPE_VARIANT = DBUS_TYPE_VARIANT,
    RELAY_DBUS_TYPE_STRUCT = DBUS_TYPE_STRUCT,
    RELAY_DBUS_TYPE_DICT_ENTRY = DBUS_TYPE_DICT_ENTRY,
};

#include "relay_dbus_shim.h"
#include "relay_hci_shim.h"
#include "relay_jpeg_shim.h"
#include "relay_icu_shim.h"
#include "relay_thread_shim.h"
#endif
