#!/usr/bin/env python3
"""A keypad with Relay's four keys and a fifth (KEY_PROG1, which the check maps to Select),
made through the kernel's uinput: an evdev device like a board's gpio-keys, for the systemd
check (scripts/systemd-vm/guest.sh). Writes READY-FILE once the device exists and keeps it until
killed; each line written to the FIFO PRESS-FIFO presses and releases KEY_PROG1 (a FIFO, not a
signal: the check runs in systemd's PID namespace, which does not see this process)."""
import fcntl
import os
import struct
import sys

UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_DEV_CREATE = 0x5501
EV_KEY = 1
KEYS = (103, 108, 28, 1, 148)  # KEY_UP, KEY_DOWN, KEY_ENTER, KEY_ESC: Relay's default map; KEY_PROG1
EV_SYN, KEY_PROG1 = 0, 148

descriptor = os.open("/dev/uinput", os.O_WRONLY)
fcntl.ioctl(descriptor, UI_SET_EVBIT, EV_KEY)
for key in KEYS:
    fcntl.ioctl(descriptor, UI_SET_KEYBIT, key)
# struct uinput_user_dev: name[80], input_id (bustype, vendor, product, version), ff_effects_max,
# then absmax, absmin, absfuzz, absflat (64 ints each, unused by keys).
setup = struct.pack("80sHHHHI", b"relay-vm-keypad", 0x06, 1, 1, 1, 0) + bytes(4 * 64 * 4)
os.write(descriptor, setup)
fcntl.ioctl(descriptor, UI_DEV_CREATE)


def press():
    # struct input_event (x86-64): timeval, type, code, value; each change ends with SYN_REPORT.
    for value in (1, 0):
        os.write(descriptor, struct.pack("qqHHi", 0, 0, EV_KEY, KEY_PROG1, value) + struct.pack("qqHHi", 0, 0, EV_SYN, 0, 0))


os.mkfifo(sys.argv[2])
with open(sys.argv[1], "w") as ready:
    ready.write("created\n")
while True:
    with open(sys.argv[2]) as requests:
        for _ in requests:
            press()
