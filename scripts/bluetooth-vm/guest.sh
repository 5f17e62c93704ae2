#!/usr/bin/env bash
# Runs inside the Bluetooth VM (scripts/bluetooth.sh boots it): the kernel's Bluetooth stack,
# three virtual BR/EDR controllers from btvirt on one virtual air, one bluetoothd, then the
# three sides at once, each in its own script: the phone on hci0 (phone.sh), the wearable on
# hci1 (wearable.sh), and a stranger on hci2 (stranger.sh) that tries to get in. Everything they
# leave is in $OUT (a folder shared with the host); this script joins their summaries into
# summary.txt.
#
# Environment: OUT (the shared folder), BIN (the folder of the built relay executables),
# BTVIRT_PRELOAD (epoll-one-event.so, built by scripts/bluetooth.sh), DEADLINE (seconds the
# scenarios may take before they are stopped, inside the VM's own limit); for phone.sh,
# IDLE_SECONDS, WAIT_EXTRA, CONFORMANCE and PRESENT_COUNT (scripts/bluetooth.sh says what they are).
set -uo pipefail
: "${OUT:?set OUT to a folder shared with the host}" "${BIN:?set BIN to the folder of the built executables}"
: "${BTVIRT_PRELOAD:?set BTVIRT_PRELOAD to the built epoll-one-event.so}" "${DEADLINE:=780}"
here=$(dirname "$0")
echo "$(date +%T) the guest script started" >"$OUT/started"
summary="$OUT/summary.txt"
# A reason in $SYNC/aborted stops every side's waiting at once (common.sh): whatever they wait
# for can no longer come, and the logs, dmesg included, are kept instead of the VM timing out.
SYNC=$OUT/sync
mkdir -p "$SYNC"
abort() { [ -e "$SYNC/aborted" ] || echo "$*" >"$SYNC/aborted"; }
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
# btvirt is the air: when it exits, every controller goes with it. Its mainloop's crash is kept
# away by epoll-one-event.so (the file says why).
(
    LD_PRELOAD=$BTVIRT_PRELOAD btvirt -B -l3 >"$OUT/btvirt.log" 2>&1
    status=$?
    [ -e "$SYNC/finished-phone" ] || abort "btvirt exited (status $status) and every virtual controller with it (btvirt.log, btmon.snoop)"
) &
pids=($!)
until_true 30 bash -c '[ "$(btmgmt info 2>/dev/null | grep -c "^hci[0-9]")" -ge 3 ]' || bring_up_failed "btvirt's three controllers did not appear"
btmon -w "$OUT/btmon.snoop" >/dev/null 2>&1 &
pids+=($!)
# The wearable's side restarts it (wearable.sh), so it is ended by name at the end.
/usr/libexec/bluetooth/bluetoothd -n -E >"$OUT/bluetoothd.log" 2>&1 &
until_true 30 busctl --system status org.bluez || bring_up_failed "bluetoothd did not come up on the system bus"
for index in 0 1 2; do btmgmt --index $index power on >/dev/null; done
btmgmt --index 0 name relay-vm-phone >/dev/null
btmgmt --index 1 name relay-vm-wearable >/dev/null
btmgmt --index 2 name relay-vm-stranger >/dev/null
for adapter in hci0 hci1 hci2; do
    until_true 20 bash -c "[ \"\$(busctl --system get-property org.bluez /org/bluez/$adapter org.bluez.Adapter1 Powered)\" = 'b true' ]" ||
        bring_up_failed "$adapter did not power on"
done
log "controllers up, bluetoothd on the system bus"

( sleep "$DEADLINE" && abort "the scenarios ran out of time after $DEADLINE s" ) &
watchdog=$!
ROLE=wearable ADAPTER=hci1 bash "$here/wearable.sh" &
wearable=$!
ROLE=stranger ADAPTER=hci2 bash "$here/stranger.sh" &
stranger=$!
ROLE=phone ADAPTER=hci0 bash "$here/phone.sh"
wait $wearable $stranger
kill $watchdog 2>/dev/null
pkill -x btvirt
kill "${pids[@]}" 2>/dev/null
pkill -x bluetoothd
dmesg >"$OUT/dmesg.txt" 2>&1
sides=("$OUT/summary-phone.txt" "$OUT/summary-wearable.txt" "$OUT/summary-stranger.txt")
{
    [ ! -e "$SYNC/aborted" ] || echo "FAIL vm: $(cat "$SYNC/aborted")"
    cat "${sides[@]}" 2>/dev/null | grep -v '^failures:'
    for side in "${sides[@]}"; do
        grep -q '^failures:' "$side" 2>/dev/null || echo "FAIL $(basename "$side" .txt): the side's script did not finish"
    done
} >"$summary.part"
{ cat "$summary.part"; echo "failures: $(grep -c '^FAIL' "$summary.part")"; } >"$summary"
rm -f "$summary.part"
log "done: $(tail -n 1 "$summary")"
