#!/usr/bin/env bash
# The main job. Until the phone agent and the link land, it runs the notification model
# on the seed documents' examples (schedules, hidden previews, checks) and starts the
# wearable agent in loopback mode to drive it and screenshot its screen.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
echo "demo: building relayctl and relay-wearable"
swift build --product relayctl 2>&1 | tail -n 1
swift build --product relay-wearable 2>&1 | tail -n 1
bin="$(swift build --show-bin-path)"
relayctl="$bin/relayctl"
output="$PWD/demo-output"
rm -rf "$output"
mkdir -p "$output"
runtime="$(mktemp -d)"
wearable_pid=""
cleanup() {
  if [ -n "$wearable_pid" ] && kill -0 "$wearable_pid" 2>/dev/null; then
    kill -TERM "$wearable_pid" 2>/dev/null || true
    wait "$wearable_pid" 2>/dev/null || true
  fi
  rm -rf "$runtime"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "The seed examples, scheduled from the day before Berlin springs forward"
"$relayctl" examples --time-zone Europe/Berlin --from 2027-03-27T12:00:00Z

step "Example files checked in New York on the fall-back weekend"
"$relayctl" check --time-zone America/New_York --from 2027-11-06T12:00:00Z \
  Examples/backup.request.json Examples/video.category.json Examples/new-video.push.json

step "A broken request is refused with every problem named (exit status 1 is expected)"
if "$relayctl" check Examples/broken.request.json; then
  echo "demo: the broken request was accepted; that is a bug" >&2
  exit 1
fi

step "The wearable agent in loopback mode (240×240 RGB565 file framebuffer)"
socket="$runtime/control/wearable.sock"
mkfifo "$runtime/ready"
"$bin/relay-wearable" --transport loopback --framebuffer "$runtime/framebuffer" --control-socket "$socket" \
  > "$runtime/ready" 2> "$output/relay-wearable.log" &
wearable_pid=$!
# The agent prints one "ready:" line once it serves requests; reading it is the wait.
read -r ready < "$runtime/ready"
echo "$ready"
"$relayctl" status --control-socket "$socket"
echo "press select → $("$relayctl" press select --control-socket "$socket")"
"$relayctl" screenshot "$output/wearable-idle.png" --control-socket "$socket"
kill -TERM "$wearable_pid"
wait "$wearable_pid" || true
wearable_pid=""
echo "the agent stopped; its control socket is gone: $([ -e "$socket" ] && echo no || echo yes)"

step "Done"
echo "Screenshots of the wearable are in $output/."
echo "relayctl examples --json prints the same examples in the model's JSON form (Docs/MODEL.md)."
