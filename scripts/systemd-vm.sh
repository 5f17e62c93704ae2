#!/usr/bin/env bash
# `make systemd`: the packaged relay-wearable service under a real systemd, in a VM. The same VM
# as the Bluetooth rig (scripts/vm-common.sh): Debian's kernel under qemu, btvirt's virtual
# controllers and bluetoothd; a virtio-gpu display (DRM with fbdev emulation) and a uinput keypad stand in for the
# panel and the keys. Inside, scripts/systemd-vm/guest.sh places the package's files as dpkg
# would (the unit, the default configuration, postinst's relay account), then starts systemd as
# the init of a PID namespace, which runs scripts/systemd-vm/check.sh as a unit: the service
# against its own sandbox, READY=1, relayctl through the relay group, a clean stop, a bad
# configuration's exit 78 without a restart loop, a crash's restart (Docs/SERVICES.md).
#
#   bash scripts/systemd-vm.sh [OUTPUT-FOLDER]      (default: systemd-output)
#
# Leaves in the output folder: summary.txt (a line a check), panel.png (the panel), journal.txt (the service's journal),
# boot-journal.txt (the whole boot), security.txt (systemd-analyze security, inside) and vm.log (the VM's console).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(realpath -m "${1:-systemd-output}")
source scripts/vm-common.sh

echo "systemd: building the agent"
swift build --product relay-wearable >/dev/null
swift build --product relayctl >/dev/null
bin=$(swift build --show-bin-path)

rm -rf "$out"
mkdir -p "$out"
status=0
# /etc, /usr and /var are written as a package install would write them, in overlays the VM drops.
vm_boot "${RELAY_SYSTEMD_TIMEOUT:-900}" "$out/started" "$out/vm.log" --cpus 2 --memory 2G --rwdir="$out" \
    --overlay-rwdir=/etc --overlay-rwdir=/usr --overlay-rwdir=/var --qemu-opts="-device virtio-gpu-pci,xres=240,yres=240" \
    --exec "OUT=$out BIN=$bin ROOT=$root BTVIRT_PRELOAD=$preload $root/scripts/systemd-vm/guest.sh" ||
    status=$?
echo "systemd: the VM ran with $vm_accel; results in $out"
if [ ! -s "$out/summary.txt" ]; then
    echo "systemd: the VM did not run the checks; its console is in $out/vm.log (last lines below)" >&2
    tail -n 30 "$out/vm.log" >&2
    exit 1
fi
cat "$out/summary.txt"
grep -q '^failures: 0$' "$out/summary.txt" && [ $status -eq 0 ]
