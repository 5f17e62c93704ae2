#!/usr/bin/env bash
# `make bluetooth`: Relay on the real Linux Bluetooth stack, in a VM. Debian's kernel boots under
# qemu through virtme-ng (the host's root filesystem, read-only, so the built executables run as
# they are); inside, scripts/bluetooth-vm/guest.sh brings up three virtual BR/EDR controllers
# from BlueZ's btvirt on one virtual air, bluetoothd, and then runs the three sides at once:
# relay-phone on hci0 (phone.sh), relay-wearable on hci1 (wearable.sh) and a stranger on hci2
# (stranger.sh), which meet through files as people would through their eyes (Docs/BLUETOOTH.md).
#
#   bash scripts/bluetooth.sh [OUTPUT-FOLDER]      (default: bluetooth-output)
#
# RELAY_BT_PRESENT_COUNT: notifications timed each way by the Notify → pixels benchmark
# (default 20; `make test` takes 8, its shortest useful form). RELAY_BT_TIMEOUT: the VM's
# limit in seconds (default 1500: the scenarios take about 450 s
# alone and 850 s with both cores kept busy, and a hung guest must still end the run). RELAY_BT_IDLE_SECONDS: measure an idle link that long (0).
# RELAY_BT_CONFORMANCE: the sections of relay-conformance's wearable cases run over RFCOMM: 6
# (default, the altered and replayed frames) or `all` (every case but unpairing and pairing,
# about 400 s more in the VM).
#
# Leaves in the output folder: the benchmarks' figures (BENCH lines in summary.txt), both agents' logs, bluetoothd's log, a btmon capture (btmon.snoop:
# `btmon -r`), the wearable's screenshots, summary.txt (a line a scenario), rig-ROLE.log (what
# each side did, when) and vm.log (the VM's console).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(realpath -m "${1:-bluetooth-output}")
source scripts/vm-common.sh

echo "bluetooth: building the agents"
swift build --product relay-phone >/dev/null
swift build --product relay-wearable >/dev/null
swift build --product relayctl >/dev/null
swift build --product relay-bench >/dev/null
swift build --product relay-conformance >/dev/null
bin=$(swift build --show-bin-path)

rm -rf "$out"
mkdir -p "$out"
# The VM's time is bounded, so that a hung guest cannot hang the run; the scenarios inside are
# stopped 150 s before that (guest.sh), leaving time to keep dmesg and the summary.
suite=${RELAY_BT_CONFORMANCE:-6}
[ "$suite" = all ] && suite_seconds=400 || suite_seconds=0
# What the scenarios wait for grows with the idle measure and the suite, which come before.
wait_extra=$((${RELAY_BT_IDLE_SECONDS:-0} + suite_seconds))
limit=${RELAY_BT_TIMEOUT:-$((1500 + wait_extra))}
status=0
vm_boot "$limit" "$out/started" "$out/vm.log" --cpus 2 --memory 2G --rwdir="$out" --overlay-rwdir=/var/lib/bluetooth \
    --exec "OUT=$out BIN=$bin BTVIRT_PRELOAD=$preload DEADLINE=$((limit - 150)) IDLE_SECONDS=${RELAY_BT_IDLE_SECONDS:-0} WAIT_EXTRA=$wait_extra CONFORMANCE=$suite PRESENT_COUNT=${RELAY_BT_PRESENT_COUNT:-20} $root/scripts/bluetooth-vm/guest.sh" ||
    status=$?
echo "bluetooth: the VM ran with $vm_accel; results in $out"
if [ ! -s "$out/summary.txt" ]; then
    echo "bluetooth: the VM did not run the scenarios; its console is in $out/vm.log (last lines below)" >&2
    tail -n 20 "$out/vm.log" >&2
    exit 1
fi
cat "$out/summary.txt"
grep -q '^failures: 0$' "$out/summary.txt" && [ $status -eq 0 ]
