#!/usr/bin/env bash
# The wearable's side of the Bluetooth rig (guest.sh runs it): relay-wearable on its controller,
# and a person at the wrist who checks the passkey and the code and answers the notification.
# The phone's side (phone.sh) leads; the two meet through files (common.sh).
ROLE=wearable
source "$(dirname "$0")/common.sh"

relay-wearable --transport rfcomm --adapter "$ADAPTER" --control-socket "$CONTROL" --framebuffer "$RUN/wearable.fb" \
    --state-directory "$RUN/wearable-state" --time-zone UTC --device-name vm-wearable >"$OUT/relay-wearable.log" 2>&1 &
WEARABLE=$!
PIDS+=($WEARABLE)
until_true 120 grep -q '^ready:' "$OUT/relay-wearable.log" || { fail "relay-wearable did not become ready"; finish; }
if grep '^ready:' "$OUT/relay-wearable.log" | grep -q "RFCOMM channel 22 of $ADAPTER ([0-9A-F:]*)," && is profileRegistered 1; then
    pass "relay-wearable registered Relay's profile on RFCOMM channel 22 with bluetoothd"
else
    fail "relay-wearable's ready line does not name channel 22: $(grep '^ready:' "$OUT/relay-wearable.log")"
fi
if until_true 20 bash -c '[ "$(busctl --system get-property org.bluez /org/bluez/$ADAPTER org.bluez.Adapter1 Discoverable)" = "b true" ]'; then
    pass "unpaired, relay-wearable made its adapter discoverable (pairable: $(adapter_property Pairable))"
else
    fail "unpaired, the adapter is not discoverable: $(adapter_property Discoverable)"
fi
signal wearable-ready "$ADDRESS"

# --- Pairing: the person checks BlueZ's passkey, then Relay's code, pressing Select each time.
if until_true 180 bash -c "[ -n \"\$(relayctl status --json --control-socket $CONTROL | python3 -c 'import json,sys; print(json.load(sys.stdin).get(\"bluetoothPasskey\") or \"\")')\" ]"; then
    PASSKEY=$(field bluetoothPasskey)
    relayctl screenshot "$OUT/screens/01-bluetooth-passkey.png" --control-socket "$CONTROL" >/dev/null 2>&1
    relayctl press select --control-socket "$CONTROL" >/dev/null
    pass "BlueZ's passkey $PASSKEY shown on the wearable; Select pressed"
    signal wearable-passkey "$PASSKEY"
else
    fail "the wearable never showed BlueZ's passkey"
fi
if until_true 120 bash -c "relayctl status --json --control-socket $CONTROL | python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(0 if s.get(\"screen\")==\"pairing\" and not s.get(\"bluetoothPasskey\") and s.get(\"pairingCode\") else 1)'"; then
    CODE=$(field pairingCode)
    relayctl screenshot "$OUT/screens/02-relay-code.png" --control-socket "$CONTROL" >/dev/null 2>&1
    relayctl press select --control-socket "$CONTROL" >/dev/null
    pass "Relay's code $CODE shown on the wearable; Select pressed"
    signal wearable-code "$CODE"
else
    fail "the wearable never showed Relay's code"
fi
if until_true 120 is link connected; then
    pass "session: the link is up over RFCOMM ($(field deviceAddress))"
else
    fail "session: the link did not come up ($(field link))"
fi
if until_true 20 bash -c '[ "$(busctl --system get-property org.bluez /org/bluez/$ADAPTER org.bluez.Adapter1 Discoverable)" = "b false" ]'; then
    pass "paired, the adapter is no longer discoverable"
else
    fail "paired, the adapter is still discoverable"
fi

# --- A notification over RFCOMM, answered here.
if until_true 120 bash -c "relayctl notifications --json --control-socket $CONTROL | grep -q 'Over the air'"; then
    relayctl screenshot "$OUT/screens/03-notification.png" --control-socket "$CONTROL" >/dev/null 2>&1
    ID=$(relayctl notifications --json --control-socket "$CONTROL" |
        python3 -c "import json,sys; print(next(n['id'] for n in json.load(sys.stdin)['notifications'] if n['title']=='Over the air'))")
    relayctl respond "$ID" yes --control-socket "$CONTROL" >/dev/null && pass "notification: shown, Yes answered" ||
        fail "notification: Yes could not be answered"
else
    fail "notification: the wearable never showed it"
fi

await finished-phone 300 >/dev/null
finish
