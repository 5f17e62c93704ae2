"""A 300 kB picture from the phone to the wearable over the rig's link, timed (phone.sh runs it).

Writes a PNG of random pixels (so that nothing compresses it) of about 300 kB, posts it with
notify-send as the notification's image-path, and follows relay-wearable's log until the
attachment is stored. Prints one line: the bytes, the seconds from Notify to stored, bytes/s.
The log is read every 20 ms, which bounds the error at that much.

Usage: python3 image-transfer.py WEARABLE_LOG FOLDER
"""
import os
import re
import struct
import subprocess
import sys
import time
import zlib

log_path, folder = sys.argv[1:3]
side = 320  # 320 × 320 RGB: 307,200 bytes of pixels, about as many in the PNG.
rows = b"".join(b"\x00" + os.urandom(side * 3) for _ in range(side))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")
image = os.path.join(folder, "picture-300k.png")
with open(image, "wb") as out:
    out.write(png)

start = os.path.getsize(log_path)
sent = time.monotonic()
subprocess.run(["notify-send", "-h", f"string:image-path:{image}", "A picture", "300 kB over the link"], check=True)
deadline = sent + 120
while time.monotonic() < deadline:
    with open(log_path, errors="replace") as log:
        log.seek(start)
        match = re.search(r"attachment stored.*bytes=(\d+)", log.read())
    if match:
        seconds = time.monotonic() - sent
        size = int(match.group(1))
        print(f"a {size / 1000:.0f} kB picture, Notify to stored on the wearable: {seconds:.2f} s, {size / seconds / 1000:.0f} kB/s")
        sys.exit(0)
    time.sleep(0.02)
print(f"the {len(png)}-byte picture was not stored on the wearable within 120 s")
sys.exit(1)
