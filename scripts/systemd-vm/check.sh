#!/usr/bin/env bash
# The checks of the packaged relay-wearable.service under systemd (scripts/systemd-vm.sh), run as
# a unit by the VM's systemd. Each check is one line of $OUT/summary.txt: "ok NAME" or
# "FAIL NAME: why"; the last line counts the failures.
set -uo pipefail
: "${OUT:?}"
unit=relay-wearable.service
summary=$OUT/summary.txt
failures=0
: >"$summary"
ok() { echo "ok $1" | tee -a "$summary"; }
fail() { echo "FAIL $1: $2" | tee -a "$summary"; failures=$((failures + 1)); }
prop() { systemctl show -P "$1" "$unit"; }
# Whether another reader may grab the keypad (EVIOCGRAB): it may not while relay-wearable holds it.
keypad_free() {
    python3 -c 'import fcntl, os, sys
descriptor = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.ioctl(descriptor, 0x40044590, 1)  # EVIOCGRAB
except OSError as error:
    sys.exit(error.errno)
fcntl.ioctl(descriptor, 0x40044590, 0)' "$KEYPAD"
}
until_true() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do ((SECONDS < deadline)) || return 1; sleep 0.5; done
}

# 1. READY=1: under Type=notify `systemctl start` returns only once the agent says it serves.
started=$SECONDS
if timeout 240 systemctl start "$unit"; then
    status=$(prop StatusText)
    if [ "$(prop ActiveState)" = active ] && [[ $status == "serving the control socket at /run/relay/wearable.sock" ]]; then
        ok "ready: active after READY=1 in $((SECONDS - started)) s, status \"$status\""
    else
        fail ready "state $(prop ActiveState), status \"$status\""
    fi
else
    fail ready "systemctl start failed or timed out: $(prop ActiveState)/$(prop SubState), result $(prop Result)"
fi

# 2. The sandbox let it do its work: it runs as relay with its groups, and drew on the panel.
pid=$(prop MainPID)
if [ "$pid" != 0 ] && [ "$(stat -c %U /proc/"$pid")" = relay ]; then
    ok "runs as relay (groups: $(ps -o supgrp= -p "$pid"))"
else
    fail account "main pid $pid not running as relay"
fi
keypad_free; grabbed=$?
if [ "$grabbed" = 16 ]; then  # EBUSY
    ok "keys: $KEYPAD grabbed by relay-wearable (EVIOCGRAB): the console does not see its presses"
else
    fail keys "another reader could grab $KEYPAD (status $grabbed): relay-wearable does not hold it"
fi
if [ "$(head -c $(( $(tr , "*" </sys/class/graphics/fb0/virtual_size) * $(cat /sys/class/graphics/fb0/bits_per_pixel) / 8 )) /dev/fb0 | tr -d '\0' | head -c 1 | wc -c)" = 1 ]; then
    ok "panel: /dev/fb0, found by its driver's name ($(cat /sys/class/graphics/fb0/name)), drawn through DeviceAllow=char-fb (panel.png)"
    # What the panel shows, as a PNG (the display is 32 bits a pixel: XRGB8888).
    python3 - "$OUT/panel.png" <<'PNG'
import struct, sys, zlib
width, height = (int(n) for n in open("/sys/class/graphics/fb0/virtual_size").read().split(","))
pixels = open("/dev/fb0", "rb").read(width * height * 4)
rows = b"".join(b"\0" + bytes(c for i in range(y * width * 4, (y + 1) * width * 4, 4) for c in (pixels[i + 2], pixels[i + 1], pixels[i])) for y in range(height))
chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PNG
else
    fail panel "/dev/fb0 holds no pixels"
fi
# The panel blanks (FBIOBLANK) after display.blank_after_seconds (5 here), and a key wakes it.
# As a member of group relay: the socket serves no one else, root included.
ctl() { runuser -u member -- relayctl "$@" 2>&1; }
# The panel's line of a status that says `panel: $1`, or what the last one said after 30 s.
panel_becomes() {
    local deadline=$((SECONDS + 30)) line
    while true; do
        line=$(ctl status | grep "^panel:")
        [ "$line" = "panel: $1" ] || ((SECONDS >= deadline)) && break
        sleep 0.3
    done
    echo "$line"
}
blanked=$(panel_becomes blanked)
if [ "$blanked" = "panel: blanked" ]; then
    dpms=$(cat /sys/class/drm/card*-*/dpms 2>/dev/null | sort -u | tr '\n' ' ')
    # A real key: KEY_PROG1 from the keypad, which [keys] select maps to Select.
    timeout 5 bash -c "echo press >$KEYPAD_FIFO"
    woken=$(panel_becomes on)
    refused=$(journalctl -u "$unit" -o cat | grep -E "refused to blank|could not wake the panel|does not blank")
    if [ "$woken" = "panel: on" ] && [ -z "$refused" ]; then
        ok "panel: blanked after 5 s idle (connector dpms while blank: ${dpms:-unknown}), woken by KEY_PROG1 on the keypad (keys.select)"
    else
        fail panel "after the press: \"$woken\"; the driver: ${refused:-accepted FBIOBLANK}"
    fi
else
    fail panel "not blanked within 30 s: $blanked; $(journalctl -u "$unit" -o cat | grep -m1 -i blank)"
fi

# The keypad unplugged and plugged back: relay-wearable says so, looks for it by its name each
# second, wherever the kernel puts it, and grabs it again once it may open it (here once the
# node has the group udev would give it).
timeout 5 bash -c "echo replug >$KEYPAD_FIFO"
named_keypad() {
    for name in /sys/class/input/event*/device/name; do
        [ "$(cat "$name")" = relay-vm-keypad ] && echo "/dev/input/$(basename "$(dirname "$(dirname "$name")")")"
    done
}
export -f named_keypad
if until_true 20 bash -c "journalctl -u $unit -o cat | grep -qF 'the key device \"relay-vm-keypad\" ($KEYPAD) went away'" &&
    until_true 20 bash -c "[ -n \"\$(named_keypad)\" ]"; then
    KEYPAD=$(named_keypad)
    chgrp input "$KEYPAD" && chmod 0660 "$KEYPAD"
    if until_true 20 bash -c "journalctl -u $unit -o cat | grep -qF 'the key device \"relay-vm-keypad\" ($KEYPAD) is back'" && { keypad_free; [ $? = 16 ]; }; then
        ok "keys: found by name ($KEYPAD), unplugged and back: $(journalctl -u "$unit" -o cat | grep -m1 "went away" | cut -c1-120)…; grabbed again"
    else
        fail keys "$KEYPAD did not come back: $(journalctl -u "$unit" -o cat | grep "key device" | tail -n 2)"
    fi
else
    fail keys "replugging $KEYPAD: $(journalctl -u "$unit" -o cat | grep "key device" | tail -n 2)"
fi

# The motor: relayctl vibrate plays the time-sensitive pattern (two pulses) on the force-feedback
# device, one effect uploaded when the agent opened it, started and stopped for each pulse.
tried=$(ctl vibrate --level time-sensitive)
if until_true 10 bash -c '[ "$(grep -c "^stop " "$OUT/vibrator.log")" -ge 2 ]' &&
    [ "$(grep -E "^(play|stop) " "$OUT/vibrator.log" | cut -d" " -f1 | tr '\n' ' ')" = "play stop play stop " ]; then
    ok "vibrator: $tried; the device saw: $(tr '\n' ',' <"$OUT/vibrator.log")"
else
    fail vibrator "relayctl said \"$tried\"; the device saw: $(tr '\n' ',' <"$OUT/vibrator.log" 2>&1); $(journalctl -u "$unit" -o cat | grep -m1 -i vibrat)"
fi

# 3. The control socket: the relay group may use it, others are told how to join.
sockets=$(stat -c '%U:%G %a' /run/relay /run/relay/wearable.sock 2>&1 | tr '\n' ' ')
[ "$sockets" = "relay:relay 750 relay:relay 660 " ] && ok "control socket: $sockets" || fail "control socket" "$sockets"
if answer=$(runuser -u member -- relayctl status 2>&1) && grep -q "screen:" <<<"$answer"; then
    ok "relayctl status as a member of relay: $(grep -m1 screen: <<<"$answer")"
else
    fail "member" "$answer"
fi
if answer=$(runuser -u outsider -- relayctl status 2>&1); then
    fail "outsider" "served: $answer"
elif grep -q "usermod -aG relay" <<<"$answer"; then
    ok "relayctl status as an outsider refused: $answer"
else
    fail "outsider" "refused without the way in: $answer"
fi

# 4. SIGTERM: a clean stop, STOPPING=1, status 0.
timeout 60 systemctl stop "$unit"
if [ "$(prop Result)" = success ] && [ "$(prop ExecMainStatus)" = 0 ]; then
    ok "stop: result success, exit status 0"
    # The grab ends with the agent: the keypad is free again (which also shows the check above can pass).
    keypad_free && ok "keys: $KEYPAD free again once it stopped" || fail keys "$KEYPAD still held after the stop"
else
    fail stop "result $(prop Result), code $(prop ExecMainCode), status $(prop ExecMainStatus)"
fi

# 5. A crash is restarted (Restart=on-failure, RestartSec=5).
systemctl start "$unit"
systemctl kill --signal=KILL "$unit"
if until_true 60 bash -c "[ \"\$(systemctl show -P NRestarts $unit)\" = 1 ] && systemctl is-active -q $unit"; then
    ok "kill -9: restarted once and active again"
else
    fail restart "after kill -9: $(prop ActiveState)/$(prop SubState), restarts $(prop NRestarts)"
fi
timeout 60 systemctl stop "$unit"

# 6. A bad configuration: exit 78 and no restart loop (RestartPreventExitStatus=78).
cp /etc/relay/wearable.toml /etc/relay/wearable.toml.good
sed -i '1i transport = "carrier-pigeon"' /etc/relay/wearable.toml
systemctl reset-failed "$unit" 2>/dev/null
timeout 60 systemctl start "$unit" && fail "bad configuration" "the service started"
sleep 8  # longer than RestartSec: a restart would have come by now
if [ "$(prop ExecMainStatus)" = 78 ] && [ "$(prop NRestarts)" = 0 ] && [ "$(prop ActiveState)" = failed ]; then
    ok "bad configuration: exit 78, failed, not restarted; says: $(journalctl -u "$unit" -o cat -n 200 | grep -m1 carrier-pigeon)"
else
    fail "bad configuration" "state $(prop ActiveState), status $(prop ExecMainStatus), restarts $(prop NRestarts)"
fi
mv /etc/relay/wearable.toml.good /etc/relay/wearable.toml

# 7. No system call was refused: a filtered call fails with EPERM (SystemCallErrorNumber=EPERM),
#    which the agent's errors name as "Operation not permitted"; a call outside the architecture
#    would kill it with SIGSYS. libdispatch's renicing (the unit says why) is expected and left out.
journalctl -u "$unit" -o short-monotonic --no-pager >"$OUT/journal.txt" 2>&1
refusals=$(grep -E "relay-wearable\[[0-9]+\]" "$OUT/journal.txt" | grep -v "Failed to set thread priority for worker thread" |
    grep -iE "not permitted|EPERM|errno=1\b|bad system call" ; grep -E "status=31/SYS" "$OUT/journal.txt")
if [ -n "$refusals" ]; then
    fail "system calls" "refused: $(head -n 3 <<<"$refusals")"
else
    ok "system calls: none refused (journal.txt); libdispatch's renicing: $(grep -c "Failed to set thread priority" "$OUT/journal.txt") lines"
fi
systemd-analyze security "$unit" >"$OUT/security.txt" 2>&1
ok "systemd-analyze security: $(tail -n 1 "$OUT/security.txt")"

echo "failures: $failures" >>"$summary"
