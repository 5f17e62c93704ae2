#!/usr/bin/env bash
# Runs inside the Bluetooth VM (scripts/bluetooth.sh boots it): the kernel's Bluetooth stack,
# two virtual BR/EDR controllers from btvirt on one virtual air, bluetoothd, then relay-phone on
# hci0 and relay-wearable on hci1, and the scenarios, each asserted. Everything it leaves is in
# $OUT (a folder shared with the host): logs, a btmon capture, screenshots, summary.txt.
#
# Environment: OUT (the shared folder), BIN (the folder of the built relay executables).
set -uo pipefail
: "${OUT:?set OUT to a folder shared with the host}" "${BIN:?set BIN to the folder of the built executables}"
export PATH="$BIN:$PATH"
RUN=/tmp/relay-vm
mkdir -p "$RUN" "$OUT/screens"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
failures=0

log() { echo "[$(date +%T)] $*" | tee -a "$OUT/rig.log"; }
pass() { echo "PASS $*" | tee -a "$SUMMARY"; log "PASS $*"; }
fail() { echo "FAIL $*" | tee -a "$SUMMARY"; log "FAIL $*"; failures=$((failures + 1)); }

# Waits (polling every 0.2 s, bounded by $1 seconds) until the command after it succeeds.
until_true() {
    local seconds=$1; shift
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.2
    done
}

W_SOCK="$RUN/wearable.sock"
P_SOCK="$RUN/phone.sock"
# One field of an agent's `relayctl status --json` (phone: add --phone).
field() {
    local socket=$1 key=$2; shift 2
    relayctl status --json --control-socket "$socket" "$@" 2>/dev/null |
        python3 -c "import json,sys; v=json.load(sys.stdin).get('$key'); print('' if v is None else v)"
}
wearable_is() { [ "$(field "$W_SOCK" "$1")" = "$2" ]; }
phone_is() { [ "$(field "$P_SOCK" "$1" --phone)" = "$2" ]; }

finish() {
    log "collecting status"
    relayctl status --control-socket "$W_SOCK" >"$OUT/wearable-status.txt" 2>&1
    relayctl status --phone --control-socket "$P_SOCK" >"$OUT/phone-status.txt" 2>&1
    kill "${PIDS[@]}" 2>/dev/null
    sleep 1
    kill -9 "${PIDS[@]}" 2>/dev/null
    echo "failures: $failures" >>"$SUMMARY"
    log "done, $failures failure(s)"
    exit $((failures > 0))
}
PIDS=()

log "kernel $(uname -r): loading Bluetooth"
modprobe bluetooth && modprobe hci_vhci && modprobe rfcomm || { fail "the kernel's Bluetooth modules did not load"; finish; }
mkdir -p /run/dbus /var/lib/bluetooth
dbus-daemon --system --fork --nopidfile || { fail "the system bus did not start"; finish; }
btvirt -B -l2 >"$OUT/btvirt.log" 2>&1 &
PIDS+=($!)
until_true 30 bash -c '[ "$(btmgmt info 2>/dev/null | grep -c "^hci[0-9]")" -ge 2 ]' || { fail "btvirt's two controllers did not appear"; finish; }
btmon -w "$OUT/btmon.snoop" >/dev/null 2>&1 &
PIDS+=($!)
/usr/libexec/bluetooth/bluetoothd -n -E >"$OUT/bluetoothd.log" 2>&1 &
PIDS+=($!)
until_true 30 busctl --system status org.bluez || { fail "bluetoothd did not come up on the system bus"; finish; }
for index in 0 1; do btmgmt --index $index power on >/dev/null; done
# The phone's adapter and the wearable's: Class of Device and names, so a person reading btmon sees who is who.
btmgmt --index 0 name relay-vm-phone >/dev/null
btmgmt --index 1 name relay-vm-wearable >/dev/null
until_true 20 bash -c 'busctl --system get-property org.bluez /org/bluez/hci1 org.bluez.Adapter1 Powered | grep -q true' ||
    { fail "hci1 did not power on"; finish; }
PHONE_ADDR=$(busctl --system get-property org.bluez /org/bluez/hci0 org.bluez.Adapter1 Address | cut -d'"' -f2)
WEARABLE_ADDR=$(busctl --system get-property org.bluez /org/bluez/hci1 org.bluez.Adapter1 Address | cut -d'"' -f2)
log "controllers: phone hci0 $PHONE_ADDR, wearable hci1 $WEARABLE_ADDR"
pass "bring-up: btvirt's controllers hci0 ($PHONE_ADDR) and hci1 ($WEARABLE_ADDR), bluetoothd on the system bus"

SESSION=$(dbus-daemon --session --fork --print-address=1 --nopidfile)
export DBUS_SESSION_BUS_ADDRESS=$SESSION
export XDG_CONFIG_HOME=$RUN/config
mkdir -p "$XDG_CONFIG_HOME"

relay-wearable --transport rfcomm --adapter hci1 --control-socket "$W_SOCK" --framebuffer "$RUN/wearable.fb" \
    --state-directory "$RUN/wearable-state" --time-zone UTC --device-name vm-wearable >"$OUT/relay-wearable.log" 2>&1 &
PIDS+=($!)
relay-phone --transport rfcomm --adapter hci0 --bus "$SESSION" --control-socket "$P_SOCK" \
    --state-directory "$RUN/phone-state" --device-name vm-phone >"$OUT/relay-phone.log" 2>&1 &
PIDS+=($!)
until_true 120 grep -q '^ready:' "$OUT/relay-wearable.log" || { fail "relay-wearable did not become ready"; finish; }
until_true 120 grep -q '^ready:' "$OUT/relay-phone.log" || { fail "relay-phone did not become ready"; finish; }
if grep '^ready:' "$OUT/relay-wearable.log" | grep -q "RFCOMM channel 22 of hci1"; then
    pass "relay-wearable registered Relay's profile on RFCOMM channel 22 of hci1 with the real bluetoothd"
else
    fail "relay-wearable's ready line does not name channel 22 of hci1: $(grep '^ready:' "$OUT/relay-wearable.log")"
fi

# --- Pairing: BlueZ bonding with numeric comparison on both agents, then Relay's code.
# The wearable's adapter is made discoverable here; the wearable does not yet do it itself.
btmgmt --index 1 connectable on >/dev/null
btmgmt --index 1 discov on >/dev/null
# First by Relay's service UUID, as a person would; if discovery does not find it, by address,
# so that the scenarios after pairing still run.
if relayctl pair --yes --phone-socket "$P_SOCK" --adapter hci0 --timeout 30 >"$OUT/relayctl-pair-discovery.log" 2>&1 </dev/null &
    PAIR=$!
    ! until_true 45 bash -c "relayctl status --json --control-socket $W_SOCK | grep -q bluetoothPasskey"; then
    wait $PAIR
    fail "discovery: relayctl pair did not find the wearable by Relay's service UUID: $(tail -n 1 "$OUT/relayctl-pair-discovery.log")"
    relayctl pair --yes --phone-socket "$P_SOCK" --adapter hci0 --address "$WEARABLE_ADDR" --timeout 60 \
        >"$OUT/relayctl-pair.log" 2>&1 </dev/null &
    PAIR=$!
else
    pass "discovery: relayctl pair found the wearable by Relay's service UUID"
    ln -sf relayctl-pair-discovery.log "$OUT/relayctl-pair.log"
fi
if until_true 120 bash -c "[ -n \"\$(relayctl status --json --control-socket $W_SOCK | python3 -c 'import json,sys; print(json.load(sys.stdin).get(\"bluetoothPasskey\") or \"\")')\" ]"; then
    PASSKEY=$(field "$W_SOCK" bluetoothPasskey)
    relayctl screenshot "$OUT/screens/01-bluetooth-passkey.png" --control-socket "$W_SOCK" >/dev/null 2>&1
    relayctl press select --control-socket "$W_SOCK" >/dev/null
    log "the wearable showed BlueZ's passkey $PASSKEY; Select pressed"
else
    fail "the wearable never showed BlueZ's passkey"
fi
if until_true 120 bash -c "relayctl status --json --control-socket $W_SOCK | python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if s.get(\"screen\")==\"pairing\" and not s.get(\"bluetoothPasskey\") and s.get(\"pairingCode\") else 1)'"; then
    CODE=$(field "$W_SOCK" pairingCode)
    relayctl screenshot "$OUT/screens/02-relay-code.png" --control-socket "$W_SOCK" >/dev/null 2>&1
    relayctl press select --control-socket "$W_SOCK" >/dev/null
    log "the wearable showed Relay's code $CODE; Select pressed"
else
    fail "the wearable never showed Relay's code"
fi
wait $PAIR
PAIR_STATUS=$?
if [ $PAIR_STATUS -eq 0 ] && grep -q "Bluetooth passkey: ${PASSKEY:0:3} ${PASSKEY:3:3}" "$OUT/relayctl-pair.log" &&
    grep -q "Paired with vm-wearable" "$OUT/relayctl-pair.log"; then
    pass "pairing: relayctl pair bonded through BlueZ (passkey $PASSKEY on both sides) and paired Relay (code $CODE)"
else
    fail "pairing: relayctl pair exited $PAIR_STATUS: $(tr '\n' '|' <"$OUT/relayctl-pair.log")"
fi
if until_true 120 phone_is link connected && until_true 60 wearable_is link connected; then
    pass "session: the link is up over RFCOMM on both sides"
else
    fail "session: the link did not come up ($(field "$P_SOCK" link --phone) / $(field "$W_SOCK" link))"
fi
BONDED=$(field "$P_SOCK" bonded --phone) TRUSTED=$(field "$P_SOCK" trusted --phone) CONNECTED=$(field "$P_SOCK" bluetoothConnected --phone)
RSSI_SOURCE=$(field "$P_SOCK" linkQualitySource --phone) RSSI=$(field "$P_SOCK" rssi --phone)
log "phone status: bonded $BONDED trusted $TRUSTED connected $CONNECTED rssi $RSSI ($RSSI_SOURCE)"
[ "$BONDED$TRUSTED$CONNECTED" = "111" ] && pass "status: the phone reports the wearable bonded, trusted and connected" ||
    fail "status: bonded $BONDED trusted $TRUSTED connected $CONNECTED"
[ "$RSSI_SOURCE" = hci ] && pass "status: RSSI $RSSI read through HCI from the connected link" ||
    fail "status: the RSSI came from '$RSSI_SOURCE', not HCI: $(field "$P_SOCK" hciRSSIUnavailable --phone)"

# --- A notification over RFCOMM, answered on the wearable.
relayctl lock --control-socket "$P_SOCK" >/dev/null
notify-send -A yes=Yes -A no=No --wait "Over the air" "From the phone's session bus to the wrist, over RFCOMM" \
    >"$OUT/notify-send.out" 2>&1 &
NOTIFY=$!
if until_true 60 bash -c "relayctl notifications --json --control-socket $W_SOCK | grep -q 'Over the air'"; then
    relayctl screenshot "$OUT/screens/03-notification.png" --control-socket "$W_SOCK" >/dev/null 2>&1
    ID=$(relayctl notifications --json --control-socket "$W_SOCK" |
        python3 -c "import json,sys; print(next(n['id'] for n in json.load(sys.stdin)['notifications'] if n['title']=='Over the air'))")
    relayctl respond "$ID" yes --control-socket "$W_SOCK" >/dev/null
    if until_true 60 grep -qx yes "$OUT/notify-send.out"; then
        pass "notification: notify-send --wait printed 'yes' after Yes on the wearable"
    else
        fail "notification: notify-send printed '$(cat "$OUT/notify-send.out")'"
    fi
else
    fail "notification: the wearable never showed it"
fi
kill $NOTIFY 2>/dev/null
finish
