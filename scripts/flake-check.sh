#!/usr/bin/env bash
# The flake check: the whole Swift test suite, N times in a row (default 5), in a fresh clone of
# the current commit, with both cores kept busy by another process (stress-ng), the way CI shares
# its machine. Any failure is a bug in the product or the test; the run stops at the first one
# and keeps its log.
#
#   bash scripts/flake-check.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bash scripts/bootstrap.sh
work=$(mktemp -d -t relay-flake-XXXXXX)
git clone -q . "$work/relay"
cd "$work/relay"
echo "flake check: $(git rev-parse --short HEAD), $runs runs in $work/relay"
swift build --build-tests >"$work/build.log" 2>&1 || { echo "the build failed: see $work/build.log"; exit 1; }
stress-ng --cpu "$(nproc)" --timeout 3h >/dev/null 2>&1 &
load=$!
trap 'kill $load 2>/dev/null || true' EXIT
for run in $(seq 1 "$runs"); do
    if swift test --skip-build >"$work/run-$run.log" 2>&1; then
        echo "run $run: $(grep -E 'Test run with' "$work/run-$run.log" | tail -n 1)"
    else
        echo "run $run: FAILED (log: $work/run-$run.log)"
        grep -E '✘' "$work/run-$run.log" | head -n 20
        exit 1
    fi
done
echo "flake check: $runs of $runs passed under load"
rm -rf "$work"
