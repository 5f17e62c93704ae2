#!/usr/bin/env bash
# The phone's side of the Bluetooth rig (guest.sh runs it): relay-phone on its controller with
# its own session bus, relayctl pair, status, and a notification answered on the wearable. It
# leads the scenarios; the wearable's side (wearable.sh) follows through files (common.sh).
ROLE=phone
source "$(dirname "$0")/common.sh"

# After the wearable's profile is registered: both sides share one bluetoothd here, which takes
# Relay's UUID once, so the phone's own registration is refused and it connects raw RFCOMM
# sockets itself (Docs/BLUETOOTH.md).
WEARABLE_ADDRESS=$(await wearable-ready 300) || { fail "the wearable's side never became ready"; finish; }
log "the wearable is $WEARABLE_ADDRESS"
SESSION=$(dbus-daemon --session --fork --print-address=1 --nopidfile)
export DBUS_SESSION_BUS_ADDRESS=$SESSION
export XDG_CONFIG_HOME=$RUN/config
mkdir -p "$XDG_CONFIG_HOME"
# Starts relay-phone (again after a stop, on the same state), its log in $OUT/relay-phone$1.log;
# succeeds once it is ready.
start_phone() {
    relay-phone --transport rfcomm --adapter "$ADAPTER" --bus "$SESSION" --control-socket "$CONTROL" \
        --state-directory "$RUN/phone-state" --device-name vm-phone >"$OUT/relay-phone${1:-}.log" 2>&1 &
    PHONE=$!
    PIDS+=($PHONE)
    until_true 120 grep -q '^ready:' "$OUT/relay-phone${1:-}.log"
}
start_phone || { fail "relay-phone did not become ready"; finish; }
# Stops relay-phone (SIGTERM; SIGKILL after 30 s).
stop_phone() {
    kill "$PHONE"
    ( sleep 30 && kill -9 "$PHONE" 2>/dev/null ) &
    wait "$PHONE" 2>/dev/null
    kill $! 2>/dev/null
}

# --- Pairing: found by Relay's service UUID, bonded with numeric comparison, then Relay's code.
relayctl pair --yes --phone-socket "$CONTROL" --adapter "$ADAPTER" --timeout 60 >"$OUT/relayctl-pair.log" 2>&1 </dev/null
PAIR_STATUS=$?
if grep -q "Found vm-wearable\|Found relay-vm-wearable\|Found .*($WEARABLE_ADDRESS)" "$OUT/relayctl-pair.log"; then
    pass "discovery: relayctl pair found the wearable by Relay's service UUID"
else
    fail "discovery: relayctl pair did not find the wearable by Relay's service UUID: $(tail -n 1 "$OUT/relayctl-pair.log")"
    # By address, so that the scenarios after pairing still run.
    relayctl pair --yes --phone-socket "$CONTROL" --adapter "$ADAPTER" --address "$WEARABLE_ADDRESS" --timeout 60 \
        >"$OUT/relayctl-pair-address.log" 2>&1 </dev/null
    PAIR_STATUS=$?
    cat "$OUT/relayctl-pair-address.log" >>"$OUT/relayctl-pair.log"
fi
PASSKEY=$(await wearable-passkey 5)
CODE=$(await wearable-code 5)
if [ $PAIR_STATUS -eq 0 ] && [ -n "$PASSKEY" ] && grep -q "Bluetooth passkey: ${PASSKEY:0:3} ${PASSKEY:3:3}" "$OUT/relayctl-pair.log" &&
    grep -q "Paired with vm-wearable" "$OUT/relayctl-pair.log"; then
    pass "pairing: relayctl pair bonded through BlueZ (passkey $PASSKEY on both sides) and paired Relay (code $CODE)"
else
    fail "pairing: relayctl pair exited $PAIR_STATUS: $(tr '\n' '|' <"$OUT/relayctl-pair.log")"
    # Every scenario after this one needs the pair: stop here, with the logs as they are.
    finish
fi
if until_true 120 is link connected; then
    pass "session: the link is up over RFCOMM"
else
    fail "session: the link did not come up ($(field link))"
fi
BONDED=$(field bonded) TRUSTED=$(field trusted) CONNECTED=$(field bluetoothConnected)
RSSI_SOURCE=$(field linkQualitySource) RSSI=$(field rssi)
log "status: bonded $BONDED trusted $TRUSTED connected $CONNECTED rssi $RSSI ($RSSI_SOURCE)"
[ "$BONDED$TRUSTED$CONNECTED" = "111" ] && pass "status: the wearable is bonded, trusted and connected" ||
    fail "status: bonded $BONDED trusted $TRUSTED connected $CONNECTED"
[ "$RSSI_SOURCE" = hci ] && pass "status: RSSI $RSSI read through HCI from the connected link" ||
    fail "status: the RSSI came from '$RSSI_SOURCE', not HCI: $(field hciRSSIUnavailable)"

# --- A notification over RFCOMM, answered on the wearable.
relayctl lock --control-socket "$CONTROL" >/dev/null
notify-send -A yes=Yes -A no=No --wait "Over the air" "From the phone's session bus to the wrist, over RFCOMM" \
    >"$OUT/notify-send.out" 2>&1 &
NOTIFY=$!
if until_true 120 grep -qx yes "$OUT/notify-send.out"; then
    pass "notification: notify-send --wait printed 'yes' after Yes on the wearable"
else
    fail "notification: notify-send printed '$(cat "$OUT/notify-send.out")'"
fi
kill $NOTIFY 2>/dev/null

# --- Notify → pixels over RFCOMM, then over a Unix socket between a loopback pair that
# relay-bench starts in this same VM: printed, not asserted. TCG makes absolute times
# meaningless; the ratio of the two is the figure (target ≤ 1.5).
p50() { sed -n 's/.* p50 \([0-9.]*\) ms.*/\1/p' "$1"; }
p99() { sed -n 's/.* p99 \([0-9.]*\) ms.*/\1/p' "$1"; }
relay-bench present --bus "$SESSION" --trace "$RUN/present.trace" --count "${PRESENT_COUNT:-20}" --interval-ms 1500 --label rfcomm >"$OUT/bench-present-rfcomm.txt" 2>&1
relay-bench present --count "${PRESENT_COUNT:-20}" --interval-ms 1500 --label unix --directory "$RUN" >"$OUT/bench-present-unix.txt" 2>&1
for link in rfcomm unix; do bench "$(tail -n 1 "$OUT/bench-present-$link.txt")"; done
if [ -n "$(p50 "$OUT/bench-present-rfcomm.txt")" ] && [ -n "$(p50 "$OUT/bench-present-unix.txt")" ]; then
    bench "$(python3 -c "import sys; r, u = [float(x) for x in sys.argv[1:3]]; r99, u99 = [float(x) for x in sys.argv[3:5]]; print(f'Notify → pixels, RFCOMM / Unix socket: p50 {r / u:.2f}×, p99 {r99 / u99:.2f}× (target ≤ 1.5×)')" \
        "$(p50 "$OUT/bench-present-rfcomm.txt")" "$(p50 "$OUT/bench-present-unix.txt")" "$(p99 "$OUT/bench-present-rfcomm.txt")" "$(p99 "$OUT/bench-present-unix.txt")")"
fi
python3 "$(dirname "$0")/image-transfer.py" "$OUT/relay-wearable.log" "$RUN" >"$OUT/bench-image.txt" 2>&1
bench "over RFCOMM, $(tail -n 1 "$OUT/bench-image.txt")"

# --- Loss and return: the wearable's controller off for longer than loss detection, with
# notifications posted meanwhile; then on again. The phone must reconnect by itself.
not_connected() { ! is link connected; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }
post_while_apart() {  # $1: title prefix, $2: count
    for i in $(seq "$2"); do notify-send "$1 $i" "Posted while the wearable was away" || fail "notify-send failed"; done
}
signal power-off
if OFF_AT=$(await powered-off 60); then
    if until_true 60 not_connected; then
        pass "loss: the phone noticed the lost link $(elapsed "$OFF_AT") s after the wearable's controller went off"
    else
        fail "loss: the phone still shows the link connected 60 s after the wearable's controller went off"
    fi
    post_while_apart "While apart" 3
    signal power-on
    if ON_AT=$(await powered-on 60) && until_true 90 is link connected; then
        pass "return: the phone reconnected by itself $(elapsed "$ON_AT") s after the controller came back"
    else
        fail "return: no link 90 s after the controller came back ($(field link) after $(field connectionAttempts) attempts: $(field lastError))"
        # Tasks blocked in the kernel (a wedged RFCOMM layer) go to dmesg.txt with the rest.
        echo w >/proc/sysrq-trigger
    fi
    signal apart-posted 3
else
    fail "loss: the wearable's side did not power its controller off"
fi

# --- relay-wearable killed (kill -9) and started again.
signal kill-wearable
if KILLED_AT=$(await wearable-killed 120); then
    if until_true 60 not_connected; then
        pass "kill -9: the phone noticed the lost link $(elapsed "$KILLED_AT") s after relay-wearable was killed"
    else
        fail "kill -9: the phone still shows the link connected 60 s after relay-wearable was killed"
    fi
    post_while_apart "While killed" 2
    signal killed-posted 2
    if STARTED_AT=$(await wearable-restarted 120) && until_true 180 is link connected; then
        pass "restart: the phone reconnected $(elapsed "$STARTED_AT") s after relay-wearable was ready again"
    else
        fail "restart: no link 180 s after relay-wearable started again ($(field link): $(field lastError))"
    fi
    await wearable-caught-up 240 >/dev/null || fail "the wearable never reported that it caught up"
else
    fail "kill -9: the wearable's side did not kill relay-wearable"
fi

# --- bluetoothd restarted on the wearable's side. Here both sides share it, and both agents
# would register Relay's UUID with the new one at once, the second refused (see the top), so
# relay-phone is stopped over the restart, as if only the wearable's bluetoothd had restarted,
# and started again after it.
stop_phone
signal restart-bluetoothd
if RESTARTED_AT=$(await bluetoothd-restarted 180); then
    start_phone -2 || fail "relay-phone did not become ready again"
    post_while_apart "After the restart" 2
    if until_true 120 is link connected; then
        pass "bluetoothd restart: the link is back $(elapsed "$RESTARTED_AT") s after relay-wearable registered again"
    else
        fail "bluetoothd restart: no link 120 s after bluetoothd came back ($(field link): $(field lastError))"
    fi
    signal restart-posted 2
    await wearable-caught-up-restart 180 >/dev/null || fail "the wearable never reported catching up after the restart"
else
    fail "bluetoothd restart: the wearable's side did not restart bluetoothd"
fi

# --- The idle link (RELAY_BT_IDLE_SECONDS, 0 by default): ACL packets each controller sent while
# nothing happened, from the kernel's counters, scaled to an hour (budget: 60 frames each way).
acl_sent() { hciconfig "$1" | sed -n 's/.*TX bytes:[0-9]* acl:\([0-9]*\).*/\1/p'; }
if [ "${IDLE_SECONDS:-0}" -gt 0 ] && is link connected; then
    PHONE_BEFORE=$(acl_sent "$ADAPTER") WEARABLE_BEFORE=$(acl_sent "$(cat "$SYNC/wearable-adapter")")
    sleep "$IDLE_SECONDS"
    PHONE_SENT=$(( $(acl_sent "$ADAPTER") - PHONE_BEFORE ))
    WEARABLE_SENT=$(( $(acl_sent "$(cat "$SYNC/wearable-adapter")") - WEARABLE_BEFORE ))
    if is link connected; then
        pass "idle: in $IDLE_SECONDS s the phone's controller sent $PHONE_SENT ACL packets and the wearable's $WEARABLE_SENT: $((PHONE_SENT * 3600 / IDLE_SECONDS)) and $((WEARABLE_SENT * 3600 / IDLE_SECONDS)) an hour"
    else
        fail "idle: the link went down while idle"
    fi
fi

# --- relay-conformance over RFCOMM (CONFORMANCE: its §6 cases, or all of the wearable's): relay-phone
# stops, and the suite, holding the phone's keys, connects from the phone's adapter as
# relay-phone does. Each §6 case (a transport message altered or replayed) must see the
# wearable close the session, and the wearable must log why. The suite's sessions start new
# log epochs on the wearable, so relay-phone, started again, must bring it back with a
# snapshot. Over RFCOMM an idle wearable closes a silent session only after 100 s (§8.7).
failed_frames() { cat "$OUT"/relay-wearable*.log | grep -c "a frame failed authentication"; }
FAILED_BEFORE=$(failed_frames)
signal conformance-start
stop_phone
if [ "${CONFORMANCE:-6}" = all ]; then SECTIONS=(--patience 100); else SECTIONS=(--section 6 --patience 30); fi
SUITE_STARTED=$(date +%s)
relay-conformance wearable --endpoint "rfcomm:$WEARABLE_ADDRESS/22" --adapter-address "$ADDRESS" \
    --key "$RUN/phone-state/identity.key" --peer-key-file "$RUN/phone-state/partner.key" "${SECTIONS[@]}" \
    >"$OUT/conformance-rfcomm.txt" 2>&1
SUITE_STATUS=$?
CASES=$(grep -c '^PASS §6' "$OUT/conformance-rfcomm.txt")
ALL=$(grep -c '^PASS' "$OUT/conformance-rfcomm.txt")
if [ $SUITE_STATUS -eq 0 ] && [ "$CASES" -ge 3 ] && until_true 30 test "$(failed_frames)" -ge $((FAILED_BEFORE + CASES)); then
    pass "relay-conformance over RFCOMM: $ALL case(s) held in $(( $(date +%s) - SUITE_STARTED )) s; each of the $CASES altered or replayed frames closed its session, and relay-wearable logged why each time"
else
    fail "relay-conformance over RFCOMM: it exited $SUITE_STATUS, $CASES §6 case(s) passed, relay-wearable logged $(( $(failed_frames) - FAILED_BEFORE )) failed frame(s): $(grep -v '^PASS' "$OUT/conformance-rfcomm.txt" | tr '\n' '|')"
fi
# The wearable counts its alerts now: the suite's own cases may alert, relay-phone's snapshot must not.
signal conformance-suite-ended
await conformance-counted 60 >/dev/null || fail "the wearable's side never counted its alerts after the conformance suite"
start_phone -3 || fail "relay-phone did not become ready after the conformance suite"
if until_true 120 is link connected && until_true 60 is unacknowledged 0; then
    pass "after the conformance suite: relay-phone reconnected over RFCOMM and the wearable acknowledged its whole log"
else
    fail "after the conformance suite: link $(field link), $(field unacknowledged) entries unacknowledged 120 s after relay-phone started again ($(field lastError))"
fi
signal conformance-done

# --- A stranger tries to connect while the two are paired (stranger.sh): the link stays. The
# stranger comes last, here and after unpairing: bluetoothd on its side can try to bond again
# tens of seconds later, and no other scenario should meet that.
signal stranger-try-paired
if await stranger-tried-paired 120 >/dev/null; then
    is link connected && pass "stranger: the link stayed up while a stranger tried to connect" ||
        fail "stranger: the link is $(field link) after a stranger tried to connect"
else
    fail "the stranger's side never finished its tries while paired"
fi

# --- Unpairing, from the phone: relayctl reaches only relay-phone here, as on two boards (the
# wearable's control socket is elsewhere); the wearable must learn it over the link.
bonded_here() { [ "$(busctl --system get-property org.bluez "/org/bluez/$ADAPTER/dev_${WEARABLE_ADDRESS//:/_}" org.bluez.Device1 Paired 2>/dev/null)" = "b true" ]; }
relayctl unpair --phone-socket "$CONTROL" --wearable-socket "$RUN/on-the-other-board.sock" >"$OUT/relayctl-unpair.log" 2>&1
if is link unpaired && ! bonded_here && grep -q "removed the bond" "$OUT/relayctl-unpair.log"; then
    pass "unpair: relay-phone forgot the wearable and the phone's bond is gone"
else
    fail "unpair: link $(field link), bonded $(bonded_here && echo yes || echo no): $(tr '\n' '|' <"$OUT/relayctl-unpair.log")"
fi
signal phone-unpaired "$ADDRESS"
await wearable-forgot 120 >/dev/null || fail "unpair: the wearable never reported what it did"
# The stranger tries the unpaired wearable (stranger.sh); the wearable's side checks its log.
signal stranger-try-unpaired
await wearable-checked-stranger 300 >/dev/null || fail "the wearable's side never checked the stranger's tries"
finish
