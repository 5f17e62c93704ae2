#!/usr/bin/env bash
# Runs inside the systemd VM (scripts/systemd-vm.sh boots it). Brings up what a Raspberry Pi
# wearable has below Relay — Bluetooth controllers (btvirt), a framebuffer (vfb), a keypad
# (uinput) with udev's groups — installs relay-wearable's package files as dpkg would, then
# runs systemd as the init of a PID namespace with check.sh as its job; systemd's end ends the VM.
#
# Environment: OUT (the shared folder), BIN (the built executables), ROOT (the checkout),
# BTVIRT_PRELOAD (epoll-one-event.so).
set -uo pipefail
: "${OUT:?}" "${BIN:?}" "${ROOT:?}" "${BTVIRT_PRELOAD:?}"
echo "$(date +%T) the guest script started" >"$OUT/started"
log() { echo "[$(date +%T) vm] $*" | tee -a "$OUT/rig-vm.log"; }
fail() { echo "FAIL bring-up: $*" >"$OUT/summary.txt"; echo "failures: 1" >>"$OUT/summary.txt"; log "FAIL $*"; exit 1; }
until_true() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do ((SECONDS < deadline)) || return 1; sleep 0.2; done
}

log "kernel $(uname -r): Bluetooth, a DRM framebuffer, uinput"
modprobe bluetooth && modprobe hci_vhci && modprobe rfcomm || fail "the kernel's Bluetooth modules did not load"
# A DRM display with the kernel's fbdev emulation, as a board's panel-mipi-dbi panel is: qemu's
# virtio-gpu (scripts/systemd-vm.sh asks for a 240×240 one).
modprobe virtio_gpu || fail "virtio_gpu did not load"
modprobe uinput || fail "uinput did not load"
# btvirt is the board's radio, outside systemd's namespace as a controller is outside the OS.
(LD_PRELOAD=$BTVIRT_PRELOAD btvirt -B -l2 >"$OUT/btvirt.log" 2>&1) &
until_true 30 bash -c '[ "$(btmgmt info 2>/dev/null | grep -c "^hci[0-9]")" -ge 2 ]' || fail "btvirt's controllers did not appear"
python3 "$ROOT/scripts/systemd-vm/keypad.py" "$OUT/keypad-ready" /var/tmp/relay-keypad.fifo &
until_true 20 test -e "$OUT/keypad-ready" || fail "the uinput keypad was not created"
# The event device of the input device named $1, as udev's by-name links would find it.
input_device() {
    for name in /sys/class/input/event*/device/name; do
        [ "$(cat "$name")" = "$1" ] && echo "/dev/input/$(basename "$(dirname "$(dirname "$name")")")"
    done
}
keypad=$(input_device relay-vm-keypad)
[ -n "$keypad" ] || fail "no keypad device"
# A coin motor as gpio-vibrator presents it: a force-feedback input device.
python3 "$ROOT/scripts/systemd-vm/vibrator.py" "$OUT/vibrator-ready" "$OUT/vibrator.log" &
until_true 20 test -e "$OUT/vibrator-ready" || fail "the uinput vibrator was not created"
vibrator=$(input_device relay-vm-vibrator)
[ -n "$vibrator" ] || fail "no vibrator device"
until_true 20 test -e /dev/fb0 || fail "virtio-gpu made no /dev/fb0"
# Blank, so that the check sees what the agent draws.
head -c $(( $(tr , "*" </sys/class/graphics/fb0/virtual_size) * $(cat /sys/class/graphics/fb0/bits_per_pixel) / 8 )) /dev/zero >/dev/fb0 2>/dev/null
# What udev's rules give these devices on Debian (50-udev-default.rules): no udevd runs here.
chgrp video /dev/fb0 && chmod 0660 /dev/fb0
chgrp input "$keypad" "$vibrator" && chmod 0660 "$keypad" "$vibrator"

log "installing relay-wearable's package files"
install -m 0755 "$BIN/relay-wearable" "$BIN/relayctl" /usr/bin/
install -m 0644 "$ROOT/packaging/systemd/relay-wearable.service" /usr/lib/systemd/system/
# virtme-ng mounts a shadow file of its own over /etc/shadow; useradd replaces the file by rename.
while mountpoint -q /etc/shadow; do umount /etc/shadow || fail "cannot unmount virtme-ng's /etc/shadow"; done
sh "$ROOT/packaging/debian/relay-wearable/postinst" configure || fail "postinst failed"
id relay >/dev/null || fail "postinst made no relay account"
mkdir -p /etc/relay
# The conffile as shipped, with this board's panel and keys set, as its owner would.
{
    # The panel and the keys by their drivers' names, as a board's owner writes them (fb0 here:
    # virtio_gpudrmfb; the keypad wherever the kernel puts it).
    printf 'panel = "%s"\ninput_names = ["relay-vm-keypad"]\n\n' "$(cat /sys/class/graphics/fb0/name)"
    # A short idle time, so that the checks see the panel blank.
    /usr/bin/relay-wearable --print-default-config |
        sed -e 's/^#blank_after_seconds = .*/blank_after_seconds = 5/' -e "s|^#vibrator = .*|vibrator = \"$vibrator\"|" \
            -e 's/^#select = .*/select = ["KEY_ENTER", "KEY_PROG1"]/'
} >/etc/relay/wearable.toml
grep -q "^vibrator = \"$vibrator\"$" /etc/relay/wearable.toml && grep -q '^select = \["KEY_ENTER", "KEY_PROG1"\]$' /etc/relay/wearable.toml &&
    grep -q '^blank_after_seconds = 5$' /etc/relay/wearable.toml || fail "the default configuration lacks a line the checks set"
# The unit reads input devices only; its owner lets it write the motor, as Hardware/README.md says.
mkdir -p /etc/systemd/system/relay-wearable.service.d
printf '[Service]\nDeviceAllow=%s rw\n' "$vibrator" >/etc/systemd/system/relay-wearable.service.d/vibrator.conf
# A person in the relay group and one outside it.
useradd --no-create-home --groups relay member && useradd --no-create-home outsider || fail "useradd failed"

install -m 0644 "$ROOT/scripts/systemd-vm/relay-check.service" "$ROOT/scripts/systemd-vm/relay-check.target" /etc/systemd/system/
printf "CHECK=%s\nOUT=%s\nKEYPAD=%s\nKEYPAD_FIFO=%s\nVIBRATOR=%s\n" "$ROOT/scripts/systemd-vm/check.sh" "$OUT" "$keypad" /var/tmp/relay-keypad.fifo "$vibrator" >/etc/relay-check.env
# What a VM over a shared, read-only root does not need and would spend minutes on under TCG:
# udev's coldplug (the two devices above are set up by hand), tmpfiles over the whole tree,
# machine-id, random seed, binfmt, sysusers, timesyncd.
for unit in systemd-udevd.service systemd-udev-trigger.service systemd-udevd-control.socket systemd-udevd-kernel.socket \
    systemd-tmpfiles-setup.service systemd-tmpfiles-setup-dev.service systemd-firstboot.service systemd-sysusers.service \
    systemd-machine-id-commit.service systemd-random-seed.service systemd-binfmt.service proc-sys-fs-binfmt_misc.automount \
    systemd-timesyncd.service apparmor.service systemd-pstore.service systemd-repart.service systemd-journal-flush.service \
    systemd-hwdb-update.service systemd-journal-catalog-update.service ldconfig.service systemd-update-done.service \
    systemd-pcrphase.service systemd-pcrphase-sysinit.service systemd-modules-load.service systemd-update-utmp.service; do
    ln -sf /dev/null "/etc/systemd/system/$unit"
done
# While systemd runs, its jobs every 20 s (a stalled boot shows what it waits for).
( while sleep 20; do { date +%T; systemctl list-jobs --no-pager; } >>"$OUT/jobs.log" 2>&1; done ) &
log "starting systemd as the init of a PID namespace"
unshare --pid --fork --mount --mount-proc --propagation private \
    env container=relay-vm /usr/lib/systemd/systemd --unit=relay-check.target --log-target=journal-or-kmsg \
    >"$OUT/systemd-console.log" 2>&1
log "systemd ended (status $?)"
# The whole boot's journal (volatile, in /run/log/journal) and the kernel's log, for a failure's reasons.
journalctl -D /run/log/journal -o short-monotonic --no-pager >"$OUT/boot-journal.txt" 2>&1
dmesg >"$OUT/dmesg.txt"
[ -s "$OUT/summary.txt" ] || fail "systemd ended without the check's summary (boot-journal.txt)"
