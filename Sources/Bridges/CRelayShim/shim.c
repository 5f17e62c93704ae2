#include "CRelayShim.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
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

int relay_ioctl_value(int fd, unsigned long request, unsigned long value) {
    return ioctl(fd, request, value);
}

int relay_evdev_grab(int fd, int grab) {
    return ioctl(fd, EVIOCGRAB, grab);
}

int relay_ff_can_rumble(int fd) {
    enum { bits_per_long = 8 * sizeof(unsigned long) };
    unsigned long bits[(FF_CNT + bits_per_long - 1) / bits_per_long];
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof bits), bits) < 0) return -1;
    return (int)((bits[FF_RUMBLE / bits_per_long] >> (FF_RUMBLE % bits_per_long)) & 1);
}

int relay_ff_upload_rumble(int fd, unsigned short length_ms) {
    struct ff_effect effect;
    memset(&effect, 0, sizeof effect);
    effect.type = FF_RUMBLE;
    effect.id = -1;
    effect.u.rumble.strong_magnitude = 0xffff;
    effect.u.rumble.weak_magnitude = 0xffff;
    effect.replay.length = length_ms;
    if (ioctl(fd, EVIOCSFF, &effect) < 0) return -1;
    return effect.id;
}

int relay_ff_play(int fd, int effect, int play) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = EV_FF;
    event.code = (unsigned short)effect;
    event.value = play;
    ssize_t written = write(fd, &event, sizeof event);
    if (written < 0) return -1;
    if (written != (ssize_t)sizeof event) {
        errno = EIO;
        return -1;
    }
    return 0;
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
