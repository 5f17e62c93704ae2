#!/usr/bin/env bash
# Installs the Debian packages Relay needs to build, test and run its demo.
# Does nothing when everything is present; says what it installs otherwise.
set -euo pipefail

packages=(
  pkg-config          # finds the C libraries for the Swift bridges
  libdbus-1-dev       # CDBus: the D-Bus layer
  libbluetooth-dev    # CBluetooth: RFCOMM sockets, bdaddr helpers
  libfreetype-dev     # CFreeType: text on the wearable's screen
  libharfbuzz-dev     # CHarfBuzz: shaping (Arabic joined, Devanagari conjuncts, emoji sequences)
  libfribidi-dev      # CFriBidi: right-to-left and mixed text in reading order
  libicu-dev          # ICU's line breaking (UAX #14, Thai by dictionary), called from the C shim
  libpng-dev          # screenshots of the wearable's screen; PNG images apps attach
  libjpeg62-turbo-dev # JPEG photos apps attach (the phone reduces them for the wearable)
  libsqlite3-dev      # GRDB: both agents' databases
  libgpiod-dev        # CGPIOD: a vibration motor on a GPIO line (the kernel's GPIO character device)
  fonts-dejavu-core   # the wearable's default font
  fonts-noto-core     # a font per script: Arabic, Hebrew, Devanagari, Thai, … (FontChain.notoScripts)
  fonts-noto-cjk      # Chinese, Japanese and Korean
  fonts-noto-color-emoji # colour emoji, flags, families, skin tones
  fonts-symbola       # fallback: symbols DejaVu lacks; emoji on a monochrome panel
  fonts-droid-fallback # fallback: Chinese, Japanese and Korean where Noto CJK is not installed
  tzdata              # time zones for calendar triggers
  dbus-daemon         # private buses in tests and the demo
  libnotify-bin       # notify-send, an independent D-Bus client
  libglib2.0-bin      # gdbus and gsettings (GNOME's banners, mirror.only_wearable_alerts)
  gsettings-desktop-schemas # GNOME's org.gnome.desktop.notifications schema, for those tests
  python3-dbusmock    # logind and BlueZ stand-ins on a private bus
  python3-venv        # the real clients' virtual environment (Tests/Clients)
  python3-dbus        # dbus-python, which notify2 (Tests/Clients) is written on
  python3-gi          # GLib's main loop for notify2
  protobuf-compiler   # protoc, to regenerate the wire schema's Swift code
  stress-ng           # keeps the cores busy for the flake check (scripts/flake-check.sh)
  systemd             # systemd-analyze rates the packaged units (ServiceUnitTests)
)

# `--bluetooth-vm`: also what the Bluetooth VM rig needs (scripts/bluetooth.sh).
if [ "${1:-}" = "--bluetooth-vm" ]; then
  packages+=(
    qemu-system-x86   # the VM
    # Debian 12's 6.12 kernel, with Bluetooth, RFCOMM and hci_vhci as modules. Not its 6.1: there
    # krfcommd hits a kernel BUG (list_del corruption in hci_chan_del) once an RFCOMM connect
    # ends in a page timeout, and RFCOMM is wedged until reboot (Docs/BLUETOOTH.md).
    linux-image-6.12-amd64
    bluez             # bluetoothd, btmgmt, btmon
    bluez-test-tools  # btvirt: virtual controllers on one virtual air
    busybox-static    # virtme-ng's init in the guest
    gcc               # builds the rig's epoll shim for btvirt (scripts/bluetooth-vm/epoll-one-event.c)
  )
fi

# `--deb`: also what `make deb` needs to check the packages it makes (scripts/deb.sh).
if [ "${1:-}" = "--deb" ]; then
  packages+=(
    dpkg-dev          # dpkg-shlibdeps: the packages' library dependencies
    lintian           # Debian's package checker
    binutils          # strip
  )
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "bootstrap: no 'swift' on PATH; Relay needs Swift 6.1 or newer (swift.org toolchain for Debian 12) on PATH" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

# The notification client libraries the tests drive against relay-phone (Tests/Clients), pinned,
# in a virtual environment of Debian's Python that also sees its dbus-python and GLib bindings.
# Installed again only when requirements.txt changes.
client_libraries() {
  local root venv requirements
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  venv=$root/.build-clients/venv requirements=$root/Tests/Clients/requirements.txt
  if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$venv/requirements.txt"; then
    return
  fi
  echo "bootstrap: installing the client libraries of Tests/Clients/requirements.txt into .build-clients/venv"
  rm -rf "$venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
  if ! "$venv/bin/pip" install -q --no-deps -r "$requirements"; then
    echo "bootstrap: pip could not install $requirements (PyPI unreachable?); the real-client tests need them" >&2
    exit 1
  fi
  cp "$requirements" "$venv/requirements.txt"
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#packages[@]} Debian packages are present"
  client_libraries
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "bootstrap: missing packages: ${missing[*]}" >&2
  echo "bootstrap: not root and no sudo; install them as root: apt-get install ${missing[*]}" >&2
  exit 1
fi

echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q >/dev/null
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: installed ${#missing[@]} package(s)"
client_libraries
