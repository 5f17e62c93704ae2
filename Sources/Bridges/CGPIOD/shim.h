#ifndef RELAY_CGPIOD_SHIM_H
#define RELAY_CGPIOD_SHIM_H
// libgpiod 1.6 (Debian 12's libgpiod-dev): GPIO lines through the kernel's character device.
#include <gpiod.h>
#endif
