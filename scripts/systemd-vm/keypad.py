#!/usr/bin/env python3
"""A keypad with Relay's four keys and a fifth (KEY_PROG1, which the check maps to Select),
made through the kernel's uinput: an evdev device like a board's gpio-keys, for the systemd
check (scripts/systemd-vm/guest.sh). Writes READY-FILE once the device exists and keeps it until
killed. Each line written to the FIFO COMMAND-FIFO is a command: "press" presses and releases
KEY_PROG1; "replug" removes the device and makes it again, as unplugging it and plugging it back
would (a FIFO, not a signal: the check runs in systemd's PID namespace, which does not see this
process)."""
import fcntl
import os
import struct
import sys

UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_DEV_CREATE = 0x5501
EV_SYN, EV_KEY, KEY_PROG1 = 0, 1, 148
KEYS = (103, 108, 28, 1, KEY_PROG1)  # KEY_UP, KEY_DOWN, KEY_ENTER, KEY_ESC: Relay's default map


def create():
    descriptor = os.open("/dev/uinput", os.O_WRONLY)
    fcntl.ioctl(descriptor, UI_SET_EVBIT, EV_KEY)
    for key in KEYS:
        fcntl.ioctl(descriptor, UI_SET_KEYBIT, key)
    # struct uinput_user_dev: name[80], input_id (bustype, vendor, product, version),
    # ff_effects_max, then absmax, absmin, absfuzz, absflat (64 ints each, unused by keys).
    os.write(descriptor, struct.pack("80sHHHHI", b"relay-vm-keypad", 0x06, 1, 1, 1, 0) + bytes(4 * 64 * 4))
    fcntl.ioctl(descriptor, UI_DEV_CREATE)
    return descriptor


def press(descriptor):
    # struct input_event (x86-64): timeval, type, code, value; each change ends with SYN_REPORT.
    for value in (1, 0):
        os.write(descriptor, struct.pack("qqHHi", 0, 0, EV_KEY, KEY_PROG1, value) + struct.pack("qqHHi", 0, 0, EV_SYN, 0, 0))


ready_file, commands = sys.argv[1], sys.argv[2]
device = create()
if os.path.exists(commands):
    os.unlink(commands)
os.mkfifo(commands)
with open(ready_file, "w") as ready:
    ready.write("created\n")
while True:
    with open(commands) as requests:
        for command in requests:
            if command.strip() == "press":
                press(device)
            elif command.strip() == "replug":
                os.close(device)  # closing the uinput descriptor removes the device
                device = create()
