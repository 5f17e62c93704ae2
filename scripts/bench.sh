#!/usr/bin/env bash
# Builds relay-bench in release and runs every benchmark. Numbers are printed, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build -c release --product relay-bench 2>&1 | tail -n 1
# idle-rss measures relay-wearable, notify relay-phone, and e2e both with relayctl pairing them;
# each expects them beside itself.
for product in relay-wearable relay-phone relayctl; do
  swift build -c release --product "$product" 2>&1 | tail -n 1
done
bench="$(swift build -c release --show-bin-path)/relay-bench"
echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for benchmark in link link-cost render idle-rss notify; do
  printf '\n== %s\n' "$benchmark"
  "$bench" "$benchmark"
done
# Notify → pixels through both agents; about five minutes with its idle minute and the
# stream that leaves 10,000 notifications open. RELAY_BENCH_E2E passes options (--idle-seconds 10).
printf '\n== %s\n' e2e
# shellcheck disable=SC2086 # the options are meant to split into words
"$bench" e2e ${RELAY_BENCH_E2E:-}
