# Sourced by the scripts that boot a VM (scripts/bluetooth.sh, scripts/systemd-vm.sh): Debian's
# 6.12 kernel under qemu through virtme-ng, with the host's root filesystem read-only.
# Sets: venv (virtme-ng's virtual environment), kernel (the image booted), preload (btvirt's
# epoll shim, built). Defines vm_boot LIMIT LOG ARGS…: boots with ARGS (vng's options), KVM when
# it can start this CPU's guests, else TCG; the guest must create STARTED (a file) first thing,
# which is how a KVM that cannot run is told from a guest that failed. Sets vm_accel.

bash scripts/bootstrap.sh --bluetooth-vm
venv=$(pwd)/.build-vm/venv
if ! "$venv/bin/vng" --version 2>/dev/null | grep -q "1.42"; then
    echo "vm: installing virtme-ng 1.42 into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "virtme-ng==1.42"
fi
export PATH="$venv/bin:$PATH"   # vng runs virtme-run from there
kernel=$(ls /boot/vmlinuz-6.12*-amd64 2>/dev/null | sort -V | tail -n 1)
[ -n "$kernel" ] || { echo "vm: no Debian 6.12 kernel in /boot; install it: apt-get install linux-image-6.12-amd64" >&2; exit 1; }
# Keeps btvirt's mainloop from crashing (the file says why).
preload=$(pwd)/.build-vm/epoll-one-event.so
cc -shared -fPIC -O2 -Wall -o "$preload" scripts/bluetooth-vm/epoll-one-event.c -ldl

# How long a KVM guest may take to reach its script before KVM is taken not to work (it boots in
# seconds; TCG, the fallback, in minutes).
vm_start_limit=180

vm_boot() {  # LIMIT STARTED LOG vng-options…
    local limit=$1 started=$2 console=$3 status=0
    shift 3
    vm_accel=kvm
    if [ -w /dev/kvm ]; then
        # A KVM that cannot run this CPU's guests fails before the guest script starts: qemu
        # exits, or stops the guest with "KVM internal error" and waits for ever. Either way
        # STARTED never appears; the VM runs in a process group of its own, so it can be ended.
        setsid timeout --kill-after=10 "$limit" "$venv/bin/vng" --run "$kernel" "$@" >>"$console" 2>&1 &
        local vm=$! waited=0
        while kill -0 "$vm" 2>/dev/null && [ ! -e "$started" ]; do
            if grep -q "KVM internal error" "$console" || [ "$waited" -ge "$vm_start_limit" ]; then
                kill -TERM -- "-$vm" 2>/dev/null || true
                sleep 2
                kill -KILL -- "-$vm" 2>/dev/null || true
                break
            fi
            sleep 1
            waited=$((waited + 1))
        done
        wait "$vm" || status=$?
        if [ ! -e "$started" ]; then
            echo "vm: KVM did not start the VM (see $console); falling back to TCG"
            vm_accel=tcg
        fi
    else
        vm_accel=tcg
    fi
    if [ $vm_accel = tcg ]; then
        status=0
        timeout --kill-after=10 "$limit" "$venv/bin/vng" --run "$kernel" "$@" --disable-kvm >>"$console" 2>&1 || status=$?
    fi
    return $status
}
