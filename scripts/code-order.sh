#!/usr/bin/env bash
# Rewrites Linking/relay-phone.order and Linking/relay-wearable.order: the functions each agent
# runs once it is up, in the order it first runs them, which lld uses to place that code together
# (Package.swift, Docs/ARCHITECTURE.md "Resident memory is mostly code"). Run it after changes
# that move much code, then `make bench` to see the agents' memory; a stale file only costs memory:
# functions it does not name are placed after those it does.
#
# The workload is `relay-bench e2e` in a short form, run with scripts/code-order/first-calls.c
# preloaded into both agents: once an agent hands back its start-up code, every function gets a
# one-shot breakpoint, and the first run of each is recorded. Linux x86-64 only.
#
#   bash scripts/code-order.sh [--scratch-path D]   (options go to scripts/release-build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

agents=(relay-phone relay-wearable)
for product in relay-bench relay-phone relay-wearable relayctl; do
  bash scripts/release-build.sh "$@" --product "$product" 2>&1 | tail -n 1
done
bin="$(bash scripts/release-build.sh "$@" --show-bin-path)"

work="$(mktemp -d "${TMPDIR:-/tmp}/relay-code-order.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cc -shared -fPIC -O2 -o "$work/first-calls.so" scripts/code-order/first-calls.c -ldl
python3 scripts/code-order/order.py list "$work" "$bin" "${agents[@]}"

# The Swift runtime's crash handler would take the breakpoints for crashes.
RELAY_CODE_ORDER_DIR="$work" LD_PRELOAD="$work/first-calls.so" SWIFT_BACKTRACE=enable=no \
  "$bin/relay-bench" e2e --seconds 5 --burst 1000 --stream 2000 --open 1000 --idle-seconds 5 >"$work/e2e.txt" 2>&1 ||
  { cat "$work/e2e.txt" >&2; echo "code-order: the workload failed; the order files are unchanged" >&2; exit 1; }

mkdir -p Linking
python3 scripts/code-order/order.py write "$work" "$bin" Linking "${agents[@]}"

# The agents again, linked with the new order files (scripts/release-build.sh sees them newer).
for agent in "${agents[@]}"; do
  bash scripts/release-build.sh "$@" --product "$agent" 2>&1 | tail -n 1
done
