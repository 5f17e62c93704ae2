#!/usr/bin/env bash
# Runs inside the Bluetooth VM (scripts/bluetooth.sh boots it): the kernel's Bluetooth stack,
# two virtual BR/EDR controllers from btvirt on one virtual air, one bluetoothd, then the two
# sides at once, each in its own script: the phone on hci0 (phone.sh), the wearable on hci1
# (wearable.sh). Everything they leave is in $OUT (a folder shared with the host); this script
# joins their summaries into summary.txt.
#
# Environment: OUT (the shared folder), BIN (the folder of the built relay executables).
set -uo pipefail
: "${OUT:?set OUT to a folder shared with the host}" "${BIN:?set BIN to the folder of the built executables}"
here=$(dirname "$0")
echo "$(date +%T) the guest script started" >"$OUT/started"
summary="$OUT/summary.txt"
log() { echo "[$(date +%T) vm] $*" | tee -a "$OUT/rig-vm.log"; }
bring_up_failed() { echo "FAIL bring-up: $*" >"$summary"; echo "failures: 1" >>"$summary"; log "FAIL $*"; exit 1; }
until_true() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do ((SECONDS < deadline)) || return 1; sleep 0.2; done
}

log "kernel $(uname -r): loading Bluetooth"
modprobe bluetooth && modprobe hci_vhci && modprobe rfcomm || bring_up_failed "the kernel's Bluetooth modules did not load"
mkdir -p /run/dbus /var/lib/bluetooth
dbus-daemon --system --fork --nopidfile || bring_up_failed "the system bus did not start"
btvirt -B -l2 >"$OUT/btvirt.log" 2>&1 &
pids=($!)
until_true 30 bash -c '[ "$(btmgmt info 2>/dev/null | grep -c "^hci[0-9]")" -ge 2 ]' || bring_up_failed "btvirt's two controllers did not appear"
btmon -w "$OUT/btmon.snoop" >/dev/null 2>&1 &
pids+=($!)
/usr/libexec/bluetooth/bluetoothd -n -E >"$OUT/bluetoothd.log" 2>&1 &
pids+=($!)
until_true 30 busctl --system status org.bluez || bring_up_failed "bluetoothd did not come up on the system bus"
for index in 0 1; do btmgmt --index $index power on >/dev/null; done
btmgmt --index 0 name relay-vm-phone >/dev/null
btmgmt --index 1 name relay-vm-wearable >/dev/null
for adapter in hci0 hci1; do
    until_true 20 bash -c "[ \"\$(busctl --system get-property org.bluez /org/bluez/$adapter org.bluez.Adapter1 Powered)\" = 'b true' ]" ||
        bring_up_failed "$adapter did not power on"
done
log "controllers up, bluetoothd on the system bus"

ROLE=wearable ADAPTER=hci1 bash "$here/wearable.sh" &
wearable=$!
ROLE=phone ADAPTER=hci0 bash "$here/phone.sh"
wait $wearable
kill "${pids[@]}" 2>/dev/null
dmesg >"$OUT/dmesg.txt" 2>&1
{
    cat "$OUT/summary-phone.txt" "$OUT/summary-wearable.txt" 2>/dev/null | grep -v '^failures:'
    echo "failures: $(cat "$OUT/summary-phone.txt" "$OUT/summary-wearable.txt" | grep -c '^FAIL')"
} >"$summary"
log "done: $(tail -n 1 "$summary")"
