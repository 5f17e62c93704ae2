#include "CRelayShim.h"

#include <sys/ioctl.h>
#include <linux/input.h>

int relay_ioctl_pointer(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

unsigned long relay_eviocgname(size_t length) {
    return (unsigned long)EVIOCGNAME(length);
}

bdaddr_t relay_bdaddr_any(void) {
    bdaddr_t any = {{0, 0, 0, 0, 0, 0}};
    return any;
}
