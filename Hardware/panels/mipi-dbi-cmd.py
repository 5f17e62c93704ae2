#!/usr/bin/env python3
"""Writes the command file the kernel's panel-mipi-dbi driver loads (as firmware,
/lib/firmware/<compatible>.bin) from a panel's initialisation sequence in text.

    python3 mipi-dbi-cmd.py st7789-240x240.txt relay,st7789-240x240.bin

The text has one step per line: `command 0x3A 0x55` sends command 0x3A with one parameter
byte, `delay 120` waits 120 ms (at most 255 per line); `#` starts a comment. The file is the
driver's format version 1: the 15-byte magic "MIPI DBI" and seven zero bytes, the version
byte, then for each step its command byte, its number of parameters and the parameters, a
delay being command 0x00 with the milliseconds as its one parameter."""
import sys

MAGIC = b"MIPI DBI" + bytes(7)
VERSION = 1


def byte(word, line_number):
    value = int(word, 0)
    if not 0 <= value <= 255:
        raise ValueError(f"line {line_number}: {word} is not a byte")
    return value


def compile_steps(text):
    out = bytearray(MAGIC + bytes([VERSION]))
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "delay" and len(words) == 2:
            milliseconds = int(words[1], 0)
            if not 0 < milliseconds <= 255:
                raise ValueError(f"line {number}: a delay is 1 to 255 ms; split a longer one")
            out += bytes([0x00, 1, milliseconds])
        elif words[0] == "command" and len(words) >= 2:
            command = byte(words[1], number)
            if command == 0x00:
                raise ValueError(f"line {number}: command 0x00 is the delay; write `delay MS`")
            parameters = [byte(word, number) for word in words[2:]]
            if len(parameters) > 255:
                raise ValueError(f"line {number}: more than 255 parameters")
            out += bytes([command, len(parameters)] + parameters)
        else:
            raise ValueError(f"line {number}: expected `command 0xNN [0xPP ...]` or `delay MS`, found {line.strip()!r}")
    return bytes(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: mipi-dbi-cmd.py SEQUENCE.txt OUTPUT.bin")
    try:
        with open(sys.argv[1]) as source:
            data = compile_steps(source.read())
    except (OSError, ValueError) as error:
        sys.exit(f"mipi-dbi-cmd.py: {sys.argv[1]}: {error}")
    with open(sys.argv[2], "wb") as target:
        target.write(data)
    print(f"mipi-dbi-cmd.py: wrote {len(data)} bytes to {sys.argv[2]}")
