#!/usr/bin/env bash
# Builds relay-bench and the agents in release, runs every benchmark, prints one table of the
# figures at the end and writes Docs/BENCHMARKS.md from Docs/BENCHMARKS.template.md with them.
# Numbers are printed, never asserted.
#
#   RELAY_BENCH_QUICK=1         shorter forms of every benchmark (a couple of minutes); the
#                               document goes into the run's directory, not Docs/
#   RELAY_BENCH_OUTPUT=PATH     where to write the document instead
#   RELAY_BENCH_SCRATCH_PATH=D  build in scratch directory D instead of SwiftPM's default
#   RELAY_BENCH_E2E="OPTIONS"   extra options for relay-bench e2e (e.g. --idle-seconds 10)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

# The shipping build (static Swift runtime, a section per function, the agents' code ordered):
# their resident memory is mostly code pages (issue #6; scripts/release-build.sh says more).
build=(bash scripts/release-build.sh)
if [[ -n "${RELAY_BENCH_SCRATCH_PATH:-}" ]]; then build+=(--scratch-path "$RELAY_BENCH_SCRATCH_PATH"); fi
# idle-rss measures relay-wearable, notify relay-phone, and e2e, catch-up, bulk and idle-link both with
# relayctl pairing them; each expects them beside relay-bench.
for product in relay-bench relay-wearable relay-phone relayctl; do
  "${build[@]}" --product "$product" 2>&1 | tail -n 1
done
bench="$("${build[@]}" --show-bin-path)/relay-bench"
# The fresh executables are dirty pages still to be written back: written during the run they
# would queue ahead of the agents' fdatasync calls and show up as their latency.
sync

quick="${RELAY_BENCH_QUICK:-}"
run="$(mktemp -d "${TMPDIR:-/tmp}/relay-bench-run.XXXXXX")"
export RELAY_BENCH_RECORD="$run/figures.jsonl"
if [[ -n "$quick" ]]; then
  output="${RELAY_BENCH_OUTPUT:-$run/BENCHMARKS.md}"
  note="quick subset (RELAY_BENCH_QUICK=1): shorter runs, fewer samples; not figures to quote"
  run_command="RELAY_BENCH_QUICK=1 make bench"
else
  output="${RELAY_BENCH_OUTPUT:-Docs/BENCHMARKS.md}"
  note=""
  run_command="make bench"
fi

echo "machine: $(nproc) cores, $(uname -m), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); figures recorded in $RELAY_BENCH_RECORD"

failed=()
# Runs one benchmark; a failure is reported and the others still run.
benchmark() {
  printf '\n== relay-bench %s\n' "$*"
  if ! "$bench" "$@"; then
    echo "relay-bench $1 failed; its figures are missing from the table and the document" >&2
    failed+=("$1")
  fi
}

if [[ -n "$quick" ]]; then
  benchmark link --count 20000
  benchmark link-cost
  benchmark decision --count 20000
  benchmark render --iterations 100
  benchmark idle-rss --seconds 2
  benchmark notify --seconds 1
  # The burst stays at 1,000 and the catch-up at 500 changes: those are the budgets' sizes.
  # shellcheck disable=SC2086 # the options are meant to split into words
  benchmark e2e --seconds 5 --stream 2000 --open 0 --idle-seconds 10 ${RELAY_BENCH_E2E:-}
  benchmark catch-up --rounds 1
  benchmark bulk --seconds 5
  benchmark idle-link --seconds 20 --settle 3
else
  benchmark link
  benchmark link-cost
  benchmark decision
  benchmark render
  benchmark idle-rss
  benchmark notify
  # Notify → pixels through both agents; about five minutes with its idle minute and the
  # stream that leaves 10,000 notifications open.
  # shellcheck disable=SC2086 # the options are meant to split into words
  benchmark e2e ${RELAY_BENCH_E2E:-}
  benchmark catch-up
  # Alerts over the simulated RFCOMM link with an image attachment in flight (issue #9); about
  # a minute and a half.
  benchmark bulk --seconds 30
  # Two minutes of an idle link, its frames counted each way.
  benchmark idle-link --seconds 120
fi

commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  commit="$commit with uncommitted changes"
fi
report=(
  "$bench" report --figures "$RELAY_BENCH_RECORD" --template Docs/BENCHMARKS.template.md --output "$output"
  --commit "$commit" --toolchain "$(swift --version 2>/dev/null | head -n 1)" --run-command "$run_command"
)
if [[ -n "$note" ]]; then report+=(--note "$note"); fi
if ((${#failed[@]} > 0)); then
  report+=(--note "failed in this run, so missing: ${failed[*]}")
fi
printf '\n== summary\n'
"${report[@]}"
if ((${#failed[@]} > 0)); then
  echo "bench: ${failed[*]} failed (see above); the other figures were written" >&2
  exit 1
fi
