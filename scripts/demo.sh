#!/usr/bin/env bash
# The main job. Until the agents' runtime lands, it runs the notification model on the
# seed documents' examples and prints their schedules, hidden previews and checks.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
echo "demo: building relayctl"
swift build --product relayctl 2>&1 | tail -n 1
relayctl="$(swift build --show-bin-path)/relayctl"

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

step "Done"
echo "relayctl examples --json prints the same examples in the model's JSON form (Docs/MODEL.md)."
