#include "CRelayShim.h"

#include <sys/ioctl.h>
#include <linux/input.h>
#include <sys/timex.h>

int relay_ioctl_pointer(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

unsigned long relay_eviocgname(size_t length) {
    return (unsigned long)EVIOCGNAME(length);
}

unsigned long relay_eviocgbit_key(size_t length) {
    return (unsigned long)EVIOCGBIT(EV_KEY, length);
}

int relay_evdev_grab(int fd, int grab) {
    return ioctl(fd, EVIOCGRAB, grab);
}

int relay_clock_synchronised(long *estimated_error) {
    struct timex time = {0};
    int state = ntp_adjtime(&time);
    if (state < 0) return -1;
    *estimated_error = time.esterror;
    return (state == TIME_ERROR || (time.status & STA_UNSYNC)) ? 0 : 1;
}

bdaddr_t relay_bdaddr_any(void) {
    bdaddr_t any = {{0, 0, 0, 0, 0, 0}};
    return any;
}
