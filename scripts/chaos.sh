#!/usr/bin/env bash
# The chaos soak: the reliability rig (Tests/RelayCtlTests/ReliabilityTests.swift) run again
# and again, with random notifications (some with pictures), updates, removals, actions,
# replies, dismissals, link drops, outages (the link simulator out of range) and kill -9 of
# either agent, each run checked: lost, duplicated, stale, shown after
# removal, repeated alerts, undelivered and repeated responses, and pictures missing on the
# wearable must all be 0.
#   scripts/chaos.sh [SECONDS] [SEED]      (defaults: 180 s; a random seed)
# Runs are seeded SEED, SEED+1, …; a failing run prints the seed that replays it:
#   RELAY_SOAK_SEED=N swift test --filter ReliabilityTests
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-${CHAOS_SECONDS:-180}}"
seed="${2:-${CHAOS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}"
operations="${CHAOS_OPERATIONS:-1500}"

bash scripts/bootstrap.sh
echo "chaos: building"
swift build --build-tests 2>&1 | tail -n 1
deadline=$((SECONDS + seconds))
runs=0
failed=0
while [ $SECONDS -lt $deadline ] || [ $runs -eq 0 ]; do
  run_seed=$((seed + runs))
  runs=$((runs + 1))
  log="$(mktemp)"
  if RELAY_SOAK_SEED="$run_seed" RELAY_SOAK_OPERATIONS="$operations" \
    swift test --skip-build --filter ReliabilityTests > "$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed=$((failed + 1))
  fi
  result="$(grep -o 'relay soak result: .*' "$log" | tail -n 1 || true)"
  summary="$(grep -o 'relay soak: seed.*' "$log" | tail -n 1 || true)"
  echo "chaos: run $runs, $status — ${result:-no result (see below)}"
  [ -n "$summary" ] && echo "       $summary"
  if [ "$status" = FAILED ]; then
    grep -E "recorded an issue|Expectation failed|error" "$log" | head -n 20 | sed 's/^/       /'
    echo "       replay: RELAY_SOAK_SEED=$run_seed RELAY_SOAK_OPERATIONS=$operations swift test --filter ReliabilityTests"
  fi
  rm -f "$log"
done
echo "chaos: $runs runs of $operations operations from seed $seed, $failed failed"
[ "$failed" -eq 0 ]
