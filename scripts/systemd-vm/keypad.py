#!/usr/bin/env python3
"""A keypad with Relay's four keys, made through the kernel's uinput: an evdev device like a
board's gpio-keys, for the systemd check (scripts/systemd-vm/guest.sh). Writes READY-FILE once
the device exists and keeps it until killed."""
import fcntl
import os
import struct
import sys
import time

UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_DEV_CREATE = 0x5501
EV_KEY = 1
KEYS = (103, 108, 28, 1)  # KEY_UP, KEY_DOWN, KEY_ENTER, KEY_ESC: Relay's key map

descriptor = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
fcntl.ioctl(descriptor, UI_SET_EVBIT, EV_KEY)
for key in KEYS:
    fcntl.ioctl(descriptor, UI_SET_KEYBIT, key)
# struct uinput_user_dev: name[80], input_id (bustype, vendor, product, version), ff_effects_max,
# then absmax, absmin, absfuzz, absflat (64 ints each, unused by keys).
setup = struct.pack("80sHHHHI", b"relay-vm-keypad", 0x06, 1, 1, 1, 0) + bytes(4 * 64 * 4)
os.write(descriptor, setup)
fcntl.ioctl(descriptor, UI_DEV_CREATE)
with open(sys.argv[1], "w") as ready:
    ready.write("created\n")
while True:
    time.sleep(3600)
