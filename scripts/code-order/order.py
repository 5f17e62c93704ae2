#!/usr/bin/env python3
"""Writes Linking/<agent>.order: the functions each agent runs once it is up, first run first.

Used by scripts/code-order.sh, which builds the agents and runs the workload. Steps:
  list DIR BIN AGENT...      write DIR/<agent>.functions: every function's link-time address
  write DIR BIN OUT AGENT... read DIR/<agent>.<pid> (what first-calls.c recorded) and write
                             OUT/<agent>.order with the functions' symbols in first-run order
"""
import os
import subprocess
import sys


def functions(binary):
    """Link-time address → first symbol name, for every function in the executable's .text."""
    text = None
    for line in subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[1] == ".text":
            start, size = int(fields[3], 16), int(fields[5], 16)
            text = (start, start + size)
    if text is None:
        sys.exit(f"code-order: {binary} has no .text section")
    names = {}
    # Functions only: a data label in .text would be damaged by a breakpoint.
    listing = subprocess.run(["readelf", "-sW", binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[3] == "FUNC" and fields[6] != "UND":
            address = int(fields[1], 16)
            if text[0] <= address < text[1]:
                names.setdefault(address, fields[7])
    return names


def list_functions(directory, binaries, agents):
    for agent in agents:
        names = functions(os.path.join(binaries, agent))
        with open(os.path.join(directory, agent + ".functions"), "w") as out:
            out.write("".join(f"{address:x}\n" for address in sorted(names)))
        print(f"code-order: {agent}: {len(names)} functions to watch")


def write_orders(directory, binaries, output, agents):
    for agent in agents:
        names = functions(os.path.join(binaries, agent))
        recordings = sorted(f for f in os.listdir(directory) if f.startswith(agent + ".") and f.split(".")[-1].isdigit())
        if not recordings:
            sys.exit(f"code-order: nothing recorded for {agent}; did it start with the preloaded library?")
        order, seen = [], set()
        for recording in recordings:
            for line in open(os.path.join(directory, recording)):
                address = int(line, 16)
                if address in names and address not in seen:
                    seen.add(address)
                    order.append(names[address])
        if not order:
            sys.exit(f"code-order: {agent} recorded no function; was its code writable (mprotect) and its list found?")
        path = os.path.join(output, agent + ".order")
        with open(path, "w") as out:
            out.write(f"# {agent}: functions in the order the agent first ran them once it was up.\n")
            out.write("# Written by scripts/code-order.sh; lld's --symbol-ordering-file (Package.swift).\n")
            out.write("".join(name + "\n" for name in order))
        print(f"code-order: {agent}: {len(order)} functions run after start-up → {path}")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "list":
        list_functions(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) >= 5 and sys.argv[1] == "write":
        write_orders(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        sys.exit(__doc__)
