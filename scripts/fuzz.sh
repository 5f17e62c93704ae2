#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time from its committed seed corpus.
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# New interesting inputs go to a scratch corpus, not into git. A crash stops the run and
# leaves its input in Fuzz/Crashes/; move it to Fuzz/Regressions/<target>/ and commit it,
# so that `make test` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-${FUZZ_SECONDS:-30}}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzFrameDecoder FuzzHandshake FuzzEnvelope FuzzPushPayload FuzzConfig FuzzNotifyCall FuzzReplica FuzzImage FuzzText)

bash scripts/bootstrap.sh
flags=(--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
for target in "${targets[@]}"; do
  echo "fuzz: building $target"
  swift build "${flags[@]}" --product "$target" 2>&1 | grep -vE "Cannot export local symbol" | tail -n 1
done
bin="$(swift build "${flags[@]}" --show-bin-path)"

mkdir -p Fuzz/Crashes
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for target in "${targets[@]}"; do
  mkdir -p "$scratch/$target"
  echo "fuzz: $target for ${seconds}s"
  # LeakSanitizer's at-exit check reports a constant ~350 bytes from Swift's lazily
  # initialised globals (the targets' fixed keys); it does not grow with the number of
  # runs. A leak per input would, and -rss_limit_mb (2 GB) stops the run if memory grows.
  ASAN_OPTIONS=detect_leaks=0 "$bin/$target" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 \
    -artifact_prefix="Fuzz/Crashes/$target-" \
    "$scratch/$target" "Fuzz/Corpus/$target" 2>&1 | grep -E "^(stat::number_of_executed_runs|stat::peak_rss_mb|==[0-9]+==|SUMMARY|Done)" || true
  if ls Fuzz/Crashes/"$target"-* >/dev/null 2>&1; then
    echo "fuzz: $target crashed; inputs in Fuzz/Crashes/ — add them to Fuzz/Regressions/$target/" >&2
    exit 1
  fi
done
echo "fuzz: no crashes"
