#!/usr/bin/env bash
# The wearable's side of the Bluetooth rig (guest.sh runs it): relay-wearable on its controller,
# and a person at the wrist who checks the passkey and the code and answers the notification.
# The phone's side (phone.sh) leads; the two meet through files (common.sh).
ROLE=wearable
source "$(dirname "$0")/common.sh"

# Starts relay-wearable (again after a kill, on the same state), its log in $OUT/relay-wearable$1.log
# and the time each notification reached the screen in $RUN/present$1.trace (for relay-bench present:
# with no gap between vibrations, so that each of its notifications alerts and is drawn).
start_wearable() {
    install -m 600 /dev/null "$RUN/present${1:-}.trace"
    RELAY_PRESENT_TRACE="$RUN/present${1:-}.trace" relay-wearable --transport rfcomm --adapter "$ADAPTER" --control-socket "$CONTROL" --framebuffer "$RUN/wearable.fb" \
        --state-directory "$RUN/wearable-state" --time-zone UTC --device-name vm-wearable --minimum-alert-gap 0 >"$OUT/relay-wearable${1:-}.log" 2>&1 &
    WEARABLE=$!
    PIDS+=($WEARABLE)
}
# The adapter is off when relay-wearable starts: it says so, and carries on once it is on.
btmgmt --index "${ADAPTER#hci}" power off >/dev/null
start_wearable
until_true 120 grep -q '^ready:' "$OUT/relay-wearable.log" || { fail "relay-wearable did not become ready"; finish; }
if grep -q "the Bluetooth adapter $ADAPTER is off; turn it on (bluetoothctl power on)" "$OUT/relay-wearable.log"; then
    pass "adapter off at start-up: relay-wearable said so: $(grep -o "the Bluetooth adapter $ADAPTER is off.*" "$OUT/relay-wearable.log" | head -n 1)"
else
    fail "adapter off at start-up: relay-wearable did not say so"
fi
btmgmt --index "${ADAPTER#hci}" power on >/dev/null
if grep '^ready:' "$OUT/relay-wearable.log" | grep -q "RFCOMM channel 22 of $ADAPTER ([0-9A-F:]*)," && is profileRegistered 1; then
    pass "relay-wearable registered Relay's profile on RFCOMM channel 22 with bluetoothd"
else
    fail "relay-wearable's ready line does not name channel 22: $(grep '^ready:' "$OUT/relay-wearable.log")"
fi
if until_true 20 bash -c '[ "$(busctl --system get-property org.bluez /org/bluez/$ADAPTER org.bluez.Adapter1 Discoverable)" = "b true" ]'; then
    pass "unpaired, relay-wearable made its adapter discoverable once it was on (pairable: $(adapter_property Pairable))"
else
    fail "unpaired, the adapter is not discoverable: $(adapter_property Discoverable)"
fi
signal wearable-adapter "$ADAPTER"
signal wearable-ready "$ADDRESS"

# --- Pairing: the person checks BlueZ's passkey, then Relay's code, pressing Select each time.
# Whether the status shows the pairing screen with `$1` (and not `$2`).
shows() {
    relayctl status --json --control-socket "$CONTROL" | python3 -c "
import json, sys
s = json.load(sys.stdin)
sys.exit(0 if s.get('screen') == 'pairing' and s.get('$1') and not s.get('${2:-none}') else 1)"
}
# Waits up to $1 s for the screen to show status field $2 (without $3), then takes screenshot
# $4, presses Select, and signals $5 with the value; $6 says what it is, for the summary.
confirm_on_screen() {
    if until_true "$1" shows "$2" "$3"; then
        local value
        value=$(field "$2")
        relayctl screenshot "$OUT/screens/$4.png" --control-socket "$CONTROL" >/dev/null 2>&1
        relayctl press select --control-socket "$CONTROL" >/dev/null
        pass "$6 $value shown on the wearable; Select pressed"
        signal "$5" "$value"
    else
        fail "the wearable never showed $6"
    fi
}
confirm_on_screen 180 bluetoothPasskey "" 01-bluetooth-passkey wearable-passkey "BlueZ's passkey"
confirm_on_screen 120 pairingCode bluetoothPasskey 02-relay-code wearable-code "Relay's code"
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
# Status reads the phone's bond, trust and RSSI in the background: each status shows the last read.
if until_true 30 eval 'is bonded 1 && is trusted 1 && is linkQualitySource hci'; then
    pass "status: the phone is bonded, trusted and connected; RSSI $(field rssi) read through HCI"
else
    fail "status: bonded $(field bonded) trusted $(field trusted), RSSI from '$(field linkQualitySource)': $(field hciRSSIUnavailable)"
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

# --- Loss and return (the phone leads): this side's controller off, then on.
not_connected() { ! is link connected; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }
index=${ADAPTER#hci}
# Each title arrived exactly once, with the count given.
arrived_once() {  # $1: title prefix, $2: count
    relayctl notifications --json --control-socket "$CONTROL" | python3 -c "
import json, sys
titles = [n['title'] for n in json.load(sys.stdin)['notifications']]
want = ['$1 %d' % i for i in range(1, $2 + 1)]
sys.exit(0 if all(titles.count(t) == 1 for t in want) else 1)"
}
alerts() { grep -c '^relay-wearable: alert' "$OUT/relay-wearable.log"; }
if await power-off 600 >/dev/null; then
    ALERTS_BEFORE=$(alerts)
    OFF_AT=$(date +%s.%N)
    btmgmt --index "$index" power off >/dev/null
    signal powered-off "$OFF_AT"
    if until_true 60 not_connected; then
        pass "loss: the wearable noticed the lost link $(elapsed "$OFF_AT") s after its controller went off"
    else
        fail "loss: the wearable still shows the link connected 60 s after its controller went off"
    fi
    await power-on 120 >/dev/null
    btmgmt --index "$index" power on >/dev/null
    signal powered-on "$(date +%s.%N)"
    COUNT=$(await apart-posted 300)
    if until_true 120 arrived_once "While apart" "${COUNT:-3}"; then
        pass "return: the $COUNT notifications posted while apart arrived, each once"
    else
        fail "return: the notifications posted while apart did not each arrive once: $(relayctl notifications --json --control-socket "$CONTROL" | tr -d '\n' | head -c 400)"
    fi

    await kill-wearable 300 >/dev/null
    kill -9 "$WEARABLE"
    signal wearable-killed "$(date +%s.%N)"
    COUNT=$(await killed-posted 120)
    start_wearable -2
    until_true 120 grep -q '^ready:' "$OUT/relay-wearable-2.log" || fail "relay-wearable did not become ready again"
    signal wearable-restarted "$(date +%s.%N)"
    if until_true 180 arrived_once "While killed" "${COUNT:-2}" && arrived_once "While apart" 3; then
        pass "restart: after kill -9, the $COUNT notifications posted meanwhile arrived, each once, and nothing was doubled"
    else
        fail "restart: after kill -9 the notifications did not each arrive once: $(relayctl notifications --json --control-socket "$CONTROL" | tr -d '\n' | head -c 400)"
    fi
    ALERTS_AFTER=$(( $(alerts) + $(grep -c '^relay-wearable: alert' "$OUT/relay-wearable-2.log") ))
    # offline.alert_window_seconds is 0 by default: what waited on the phone arrives silently.
    if [ "$ALERTS_AFTER" -eq "$ALERTS_BEFORE" ]; then
        pass "alerts: none of the 5 notifications that waited on the phone alerted on arrival (offline.alert_window_seconds = 0)"
    else
        fail "alerts: $((ALERTS_AFTER - ALERTS_BEFORE)) alert(s) for the 5 notifications that waited on the phone"
    fi
    signal wearable-caught-up

    # bluetoothd restarted: it forgets profiles, agents and settings, and powers the
    # controllers down and up; relay-wearable must register again and stay hidden.
    if await restart-bluetoothd 300 >/dev/null; then
        registrations() { grep -c "registered with bluetoothd" "$OUT/relay-wearable-2.log"; }
        hidden() { [ "$(adapter_property Discoverable)" = false ] && [ "$(adapter_property Powered)" = true ]; }
        BEFORE=$(registrations)
        pkill -x bluetoothd
        until_true 30 eval '! busctl --system status org.bluez' || fail "bluetoothd did not stop"
        /usr/libexec/bluetooth/bluetoothd -n -E >"$OUT/bluetoothd-2.log" 2>&1 &
        if until_true 30 busctl --system status org.bluez && until_true 60 eval '[ "$(registrations)" -gt "$BEFORE" ]' &&
            until_true 30 hidden && ! grep -q "agent could not be registered" "$OUT/relay-wearable-2.log"; then
            pass "bluetoothd restart: relay-wearable registered its profile and agent with the new bluetoothd; the adapter is powered and hidden"
        else
            fail "bluetoothd restart: relay-wearable did not register again (powered $(adapter_property Powered), discoverable $(adapter_property Discoverable)): $(tail -n 3 "$OUT/relay-wearable-2.log" | tr '\n' '|')"
        fi
        # bluetoothd absent when relay-wearable starts (a board whose services start at once):
        # it says so once, waits, and carries on when bluetoothd comes.
        kill "$WEARABLE"
        ( sleep 30 && kill -9 "$WEARABLE" 2>/dev/null ) &
        wait "$WEARABLE" 2>/dev/null
        kill $! 2>/dev/null
        pkill -x bluetoothd
        until_true 30 eval '! busctl --system status org.bluez' || fail "bluetoothd did not stop"
        start_wearable -3
        if until_true 60 grep -q "bluetoothd (org.bluez) is not on the system bus.*waiting for it" "$OUT/relay-wearable-3.log"; then
            pass "bluetoothd absent: relay-wearable said so and waited: $(grep -o "bluetoothd (org.bluez) is not on the system bus.*" "$OUT/relay-wearable-3.log")"
        else
            fail "bluetoothd absent: relay-wearable did not say it waits: $(tr '\n' '|' <"$OUT/relay-wearable-3.log")"
        fi
        /usr/libexec/bluetooth/bluetoothd -n -E >"$OUT/bluetoothd-3.log" 2>&1 &
        if until_true 120 grep -q '^ready:' "$OUT/relay-wearable-3.log" && until_true 30 hidden; then
            pass "bluetoothd absent: once bluetoothd came, relay-wearable registered and became ready, hidden as paired"
        else
            fail "bluetoothd absent: relay-wearable did not become ready after bluetoothd came: $(tail -n 3 "$OUT/relay-wearable-3.log" | tr '\n' '|')"
        fi
        signal bluetoothd-restarted "$(date +%s.%N)"
        COUNT=$(await restart-posted 300)
        if until_true 120 arrived_once "After the restart" "${COUNT:-2}" && arrived_once "While killed" 2 && arrived_once "While apart" 3; then
            pass "bluetoothd restart: the $COUNT notifications posted meanwhile arrived, each once, and nothing was doubled"
        else
            fail "bluetoothd restart: the notifications did not each arrive once: $(relayctl notifications --json --control-socket "$CONTROL" | tr -d '\n' | head -c 400)"
        fi
        signal wearable-caught-up-restart
    fi
fi

# --- relay-conformance's sessions (phone.sh) started new log epochs here; relay-phone's
# snapshot afterwards must leave each notification once, and alert for none.
all_alerts() { cat "$OUT"/relay-wearable*.log | grep -c '^relay-wearable: alert'; }
if await conformance-start $((900 + ${WAIT_EXTRA:-0})) >/dev/null &&
    await conformance-suite-ended $((300 + ${WAIT_EXTRA:-0})) >/dev/null; then
    ALERTS_BEFORE_SUITE=$(all_alerts)
    signal conformance-counted
    if await conformance-done 300 >/dev/null; then
        if until_true 60 arrived_once "While apart" 3 && arrived_once "While killed" 2 && arrived_once "After the restart" 2; then
            pass "after the conformance suite: relay-phone's snapshot left each of the 7 notifications here once"
        else
            fail "after the conformance suite: the notifications are not each here once: $(relayctl notifications --json --control-socket "$CONTROL" | tr -d '\n' | head -c 400)"
        fi
        [ "$(all_alerts)" -eq "$ALERTS_BEFORE_SUITE" ] && pass "after the conformance suite: nothing alerted again" ||
            fail "after the conformance suite: $(( $(all_alerts) - ALERTS_BEFORE_SUITE )) alert(s) on the snapshot"
    fi
fi

# --- Unpairing from the phone, learnt over the link.
if PHONE_ADDRESS=$(await phone-unpaired $((900 + ${WAIT_EXTRA:-0}))); then
    phone_unbonded() { [ "$(busctl --system get-property org.bluez "/org/bluez/$ADAPTER/dev_${PHONE_ADDRESS//:/_}" org.bluez.Device1 Paired 2>/dev/null)" != "b true" ]; }
    discoverable() { [ "$(adapter_property Discoverable)" = true ]; }
    if until_true 60 is link unpaired && until_true 30 phone_unbonded && until_true 30 discoverable; then
        pass "unpair: told over the link, relay-wearable forgot the phone, removed its bond and is discoverable again"
    else
        fail "unpair: link $(field link), discoverable $(adapter_property Discoverable)"
    fi
    signal wearable-forgot
fi

# --- A stranger (stranger.sh) tried while this side was paired, and now while it is unpaired:
# relay-wearable refuses its just-works bond and never gets a connection from it.
# (grep reads the logs itself: with pipefail, `cat | grep -q` fails when grep stops early.)
if STRANGER=$(await stranger-tried-unpaired 600); then
    if grep -q "bonding request from $STRANGER: refused, no passkey to compare" "$OUT"/relay-wearable*.log; then
        pass "stranger: relay-wearable refused its just-works bond and logged why: $(grep -ho "refused, no passkey to compare[^:]*" "$OUT"/relay-wearable*.log | head -n 1)"
    else
        fail "stranger: relay-wearable did not log refusing the stranger's bond"
    fi
    if grep -q "connection from .*dev_${STRANGER//:/_}" "$OUT"/relay-wearable*.log; then
        fail "stranger: relay-wearable was handed a connection from the stranger"
    else
        pass "stranger: no connection from the stranger reached relay-wearable, paired or unpaired"
    fi
    [ -z "$(field bluetoothPasskey)" ] || fail "stranger: a passkey is on the wearable's screen after the stranger's tries"
    signal wearable-checked-stranger
fi

await finished-phone $((300 + ${WAIT_EXTRA:-0})) >/dev/null
finish
