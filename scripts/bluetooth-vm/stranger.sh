#!/usr/bin/env bash
# A stranger in the Bluetooth rig (guest.sh runs it): a third controller, hci2, with no screen
# and no buttons (IO capability NoInputNoOutput, as a headless attacker would present), which
# tries to connect to Relay's RFCOMM channel while the wearable is paired, and then, once it is
# unpaired again and waits for a phone, to bond with it and to connect. It must get nothing; the wearable's
# side (wearable.sh) checks what relay-wearable logged.
ROLE=stranger
source "$(dirname "$0")/common.sh"

index=${ADAPTER#hci}
channel=22
WEARABLE_ADDRESS=$(await wearable-ready 300) || { fail "the wearable's side never became ready"; finish; }
wearable_device="/org/bluez/$(cat "$SYNC/wearable-adapter")/dev_${ADDRESS//:/_}"
bonded_on_wearable() {
    [ "$(busctl --system get-property org.bluez "$wearable_device" org.bluez.Device1 Paired 2>/dev/null)" = "b true" ]
}
# Connects to Relay's channel and keeps what arrives in $OUT/stranger-received-$1.bin; prints
# rctest's error. Succeeds when the connection was refused and nothing arrived.
refused_and_nothing_received() {
    local received="$OUT/stranger-received-$1.bin"
    : >"$received"
    timeout 60 rctest -u -i "$ADAPTER" -P $channel -O "$received" "$WEARABLE_ADDRESS" >"$OUT/stranger-rctest-$1.log" 2>&1
    local status=$?
    log "rctest exited $status: $(tail -n 1 "$OUT/stranger-rctest-$1.log"); $(stat -c %s "$received") bytes received"
    [ $status -ne 0 ] && [ $status -ne 124 ] && [ ! -s "$received" ]
}
btmgmt --index "$index" io-cap 3 >/dev/null

# --- While the wearable is paired and its link is up (the phone says when).
if await stranger-try-paired $((900 + ${WAIT_EXTRA:-0})) >/dev/null; then
    if refused_and_nothing_received paired && ! bonded_on_wearable; then
        pass "paired wearable: a connection to channel $channel was refused and nothing arrived ($(tail -n 1 "$OUT/stranger-rctest-paired.log" | sed 's/^rctest\[[0-9]*\]: //'))"
    else
        fail "paired wearable: the stranger reached channel $channel: $(tr '\n' '|' <"$OUT/stranger-rctest-paired.log")"
    fi
    signal stranger-tried-paired "$ADDRESS"
fi

# --- Once unpaired again, the wearable waits for a phone (discoverable and pairable): "just works".
if await stranger-try-unpaired 300 >/dev/null; then
    # btmgmt quits when its input ends, before the answer, so the input stays open; and the
    # kernel does not always finish its command after a refusal, so btmgmt's time is bounded
    # and what counts is the bond (the wearable's side checks relay-wearable's reason).
    timeout 20 btmgmt --index "$index" pair -c 3 -t 0 "$WEARABLE_ADDRESS" >"$OUT/stranger-pair.log" 2>&1 < <(sleep 20)
    log "btmgmt pair exited $?: $(tr '\n' '|' <"$OUT/stranger-pair.log")"
    if ! bonded_on_wearable; then
        pass "unpaired wearable: a just-works bond was refused: the wearable has no bond with the stranger"
    else
        fail "unpaired wearable: the just-works bond was not refused: $(tr '\n' '|' <"$OUT/stranger-pair.log")"
    fi
    if refused_and_nothing_received unpaired; then
        pass "unpaired wearable: a connection to channel $channel was refused and nothing arrived ($(tail -n 1 "$OUT/stranger-rctest-unpaired.log" | sed 's/^rctest\[[0-9]*\]: //'))"
    else
        fail "unpaired wearable: the stranger reached channel $channel: $(tr '\n' '|' <"$OUT/stranger-rctest-unpaired.log")"
    fi
    signal stranger-tried-unpaired "$ADDRESS"
fi
await finished-phone 900 >/dev/null
finish
