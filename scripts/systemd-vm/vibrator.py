#!/usr/bin/env python3
"""A vibration motor as the kernel's gpio-vibrator driver presents one: an evdev device with
force feedback (FF_RUMBLE), made through uinput, for the systemd check
(scripts/systemd-vm/guest.sh). It accepts effect uploads and erasures as a driver does, and
appends each effect played or stopped to LOG-FILE ("upload ID LENGTHms", "play ID", "stop ID").
Writes READY-FILE once the device exists, and runs until killed. The structure sizes are
x86-64's, the VM's."""
import fcntl
import os
import struct
import sys

UI_SET_EVBIT, UI_SET_FFBIT, UI_DEV_CREATE = 0x40045564, 0x4004556B, 0x5501
UI_BEGIN_FF_UPLOAD, UI_END_FF_UPLOAD = 0xC06855C8, 0x406855C9
UI_BEGIN_FF_ERASE, UI_END_FF_ERASE = 0xC00C55CA, 0x400C55CB
EV_FF, FF_RUMBLE, EV_UINPUT, UI_FF_UPLOAD, UI_FF_ERASE = 0x15, 0x50, 0x0101, 1, 2
EVENT = struct.Struct("qqHHi")  # struct input_event: timeval, type, code, value

ready_file, log_file = sys.argv[1], sys.argv[2]
descriptor = os.open("/dev/uinput", os.O_RDWR)
fcntl.ioctl(descriptor, UI_SET_EVBIT, EV_FF)
fcntl.ioctl(descriptor, UI_SET_FFBIT, FF_RUMBLE)
# struct uinput_user_dev: name, input_id, ff_effects_max (4), then the unused axis tables.
os.write(descriptor, struct.pack("80sHHHHI", b"relay-vm-vibrator", 0x06, 1, 2, 1, 4) + bytes(4 * 64 * 4))
fcntl.ioctl(descriptor, UI_DEV_CREATE)
with open(ready_file, "w") as ready:
    ready.write("created\n")


def note(line):
    with open(log_file, "a") as log:
        log.write(line + "\n")


while True:
    _, _, kind, code, value = EVENT.unpack(os.read(descriptor, EVENT.size))
    if kind == EV_UINPUT and code == UI_FF_UPLOAD:
        # struct uinput_ff_upload: request_id, retval, effect (48 bytes), old (48 bytes).
        upload = bytearray(struct.pack("Ii", value, 0) + bytes(96))
        fcntl.ioctl(descriptor, UI_BEGIN_FF_UPLOAD, upload)
        kind_of_effect, effect_id, _, _, _, length, _ = struct.unpack_from("HhHHHHH", upload, 8)
        note(f"upload {effect_id} {length}ms" + ("" if kind_of_effect == FF_RUMBLE else f" type {kind_of_effect:#x}"))
        fcntl.ioctl(descriptor, UI_END_FF_UPLOAD, bytes(upload))
    elif kind == EV_UINPUT and code == UI_FF_ERASE:
        erase = bytearray(struct.pack("IiI", value, 0, 0))
        fcntl.ioctl(descriptor, UI_BEGIN_FF_ERASE, erase)
        note(f"erase {struct.unpack_from('I', erase, 8)[0]}")
        fcntl.ioctl(descriptor, UI_END_FF_ERASE, bytes(erase))
    elif kind == EV_FF:
        note(f"{'play' if value else 'stop'} {code}")
