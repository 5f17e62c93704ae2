#!/usr/bin/env bash
# Builds relay-bench in release and runs every benchmark. Numbers are printed, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build -c release --product relay-bench 2>&1 | tail -n 1
# idle-rss measures relay-wearable, and notify relay-phone, which they expect beside themselves.
swift build -c release --product relay-wearable 2>&1 | tail -n 1
swift build -c release --product relay-phone 2>&1 | tail -n 1
bench="$(swift build -c release --show-bin-path)/relay-bench"
echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown), date: $(date -u +%Y-%m-%dT%H:%MZ)"
for benchmark in link link-cost render idle-rss notify; do
  printf '\n== %s\n' "$benchmark"
  "$bench" "$benchmark"
done
