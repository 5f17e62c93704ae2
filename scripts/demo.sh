#!/usr/bin/env bash
# The main job: both agents in loopback mode on a private session bus, paired; the phone
# first as a board with no lock source (it mirrors), then unlocked and locked through
# relayctl, then the seed scenario played through real notifications, with the wearable's
# keys pressed through relayctl and screenshots of its screen left in demo-output/.
# Everything it starts is stopped when it ends, also on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
echo "demo: building relay-phone, relay-wearable and relayctl"
for product in relay-phone relay-wearable relayctl; do
  swift build --product "$product" 2>&1 | tail -n 1
done
bin="$(swift build --show-bin-path)"
relayctl="$bin/relayctl"
output="$PWD/demo-output"
rm -rf "$output"
mkdir -p "$output"
run="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

started=$SECONDS
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
say() { printf '   %s\n' "$*"; }
wearable() { "$relayctl" "$@" --control-socket "$run/wearable/wearable.sock"; }
phone() { "$relayctl" "$@" --control-socket "$run/phone/phone.sock"; }
field() { wearable status | sed -n "s/^$1: //p"; }
home() {
  for _ in 1 2 3 4 5 6; do [ "$(field screen)" = idle ] && return 0; wearable press back > /dev/null; done
  await screen idle
}
press() {
  for key in "$@"; do say "wearable: press $key → $(wearable press "$key")"; done
}
shot() {
  wearable screenshot "$output/$1.png" > /dev/null
  say "screenshot: demo-output/$1.png ($(field screen))"
}
# Waits (up to 10 s) until the wearable's status field $1 reads $2: the agents work on their
# own threads, so the demo watches for the state it needs rather than sleeping a guess.
await() {
  for _ in $(seq 100); do [ "$(field "$1")" = "$2" ] && return 0; sleep 0.1; done
  echo "demo: the wearable's $1 never became '$2' (it is '$(field "$1")')" >&2
  exit 1
}
# Starts an agent in the background and waits for its "ready:" line.
start() {
  local name=$1; shift
  mkfifo "$run/$name.ready"
  "$@" > "$run/$name.ready" 2> "$output/$name.log" &
  pids+=($!)
  read -r ready < "$run/$name.ready"
  say "$ready"
}

step "A private session bus"
mkfifo "$run/bus.address"
dbus-daemon --session --nofork --nopidfile --print-address=1 > "$run/bus.address" 2> "$output/dbus-daemon.log" &
pids+=($!)
read -r bus < "$run/bus.address"
export DBUS_SESSION_BUS_ADDRESS="$bus"
say "$bus"

step "relay-wearable and relay-phone in loopback mode"
mkdir -p "$run/wearable" "$run/phone"
chmod 700 "$run/wearable" "$run/phone"
# The demo posts faster than anyone receives notifications: without the gap between vibrations
# (3 s by default, Docs/POLICY.md) each of its alerts shows its short look.
start relay-wearable "$bin/relay-wearable" --transport loopback --device-name "Demo Watch" \
  --control-socket "$run/wearable/wearable.sock" --framebuffer "$run/wearable/framebuffer" \
  --state-directory "$run/wearable/state" --time-zone UTC --minimum-alert-gap 0
start relay-phone "$bin/relay-phone" --transport loopback --device-name "Demo Phone" --bus "$bus" --system-bus "$bus" \
  --control-socket "$run/phone/phone.sock" --state-directory "$run/phone/state" --peer "$run/wearable/wearable-link.sock"

step "Pairing: the same 6-digit code on both, confirmed on both"
"$relayctl" pair --yes --phone-socket "$run/phone/phone.sock" > "$run/pair.out" &
pairing=$!
await screen pairing
shot 01-pairing-code
press select
wait "$pairing"
sed 's/^/   relayctl: /' "$run/pair.out"
await link connected
say "wearable: link $(field link) to $(field peer), partner key $(field partnerFingerprint)"

step "A phone board with no screen: nothing says whether it is locked, so it mirrors everything"
say "relayctl status --phone → lock: $(phone status | sed -n 's/^lock: //p')"
doorbell=$(notify-send --print-id "Doorbell" "Someone is at the door")
await notifications 1
say "notify-send Doorbell → on the wearable: $(wearable notifications | head -n 1)"
shot 01b-headless-doorbell
phone dismiss "$doorbell" > /dev/null
await notifications 0
home

step "A lock source decides once there is one: unlocked, a new notification stays on the phone"
say "relayctl unlock → $(phone unlock)"
kept=$(notify-send --print-id "Kept on the phone" "You are looking at the phone")
for _ in $(seq 100); do grep -q "is not mirrored: the phone is unlocked" "$output/relay-phone.log" && break; sleep 0.1; done
say "relay-phone's log: $(grep -o "notification [0-9]* from .* is not mirrored: the phone is unlocked[^;]*" "$output/relay-phone.log" | head -n 1)"
say "wearable: $(field notifications) notification(s)"
phone dismiss "$kept" > /dev/null

step "The phone locks: from now on the wearable alerts"
say "relayctl lock → $(phone lock)"

step "Social: the \"Thai Vacation\" thread (a comment, then an image)"
cat > "$run/social.categories.json" <<'JSON'
[
  {"identifier": "comment-category",
   "actions": [{"identifier": "reply-action", "title": "Reply",
                "textInput": {"buttonTitle": "Send", "placeholder": "Reply", "suggestedReplies": ["Gorgeous!", "Wish I was there"]}}],
   "hiddenPreviewsBodyPlaceholder": {"one": "%u Comment", "other": "%u Comments"}},
  {"identifier": "image-category",
   "actions": [{"identifier": "like-action", "title": "Like"}],
   "hiddenPreviewsBodyPlaceholder": {"one": "%u Image", "other": "%u Images"}}
]
JSON
"$relayctl" categories "$run/social.categories.json" --app-id org.example.Social > /dev/null
say "org.example.Social set its categories: comment-category (Reply), image-category (Like)"
"$relayctl" notify --app-id org.example.Social --id thai-vacation-comment-1 --title "Thai Vacation" \
  --subtitle "John Appleseed" --body "Whoa, what a sunset!" --thread thai-vacation --category comment-category \
  --wait > "$run/thai-comment.out" &
pids+=($!)
thai_comment=$!
await showing "Thai Vacation"
say "posted: Thai Vacation — John Appleseed: Whoa, what a sunset! (waiting for a response)"
say "wearable: $(field screen), $(field alerts) alert(s)"
shot 02-short-look-comment
"$relayctl" notify --app-id org.example.Social --id thai-vacation-image-1 --title "Thai Vacation" \
  --subtitle "Jane Doe" --body "Check out this photo!" --thread thai-vacation --category image-category \
  --attachment Examples/sunset.png > /dev/null
await notifications 2
say "posted: Thai Vacation — Jane Doe: Check out this photo! (with Examples/sunset.png, 480×320)"
say "wearable: $(field screen), $(field alerts) alert(s)"
# The photo follows the notification on the link's bulk channel, reduced by the phone to fit 320×320.
await attachments 1
say "wearable: the photo arrived ($(field attachments) image stored)"
press select
shot 03-long-look-photo
home

step "Video: \"New Video\" with Like and Comment"
echo "[$(cat Examples/video.category.json)]" | "$relayctl" categories - --app-id org.example.Video > /dev/null
say "org.example.Video set its categories from Examples/video.category.json (Like, Comment)"
"$relayctl" notify --app-id org.example.Video --id new-video-1 --title "New Video" \
  --body "John Appleseed posted a new video" --category video-category --wait > "$run/video.out" &
pids+=($!)
video=$!
await showing "New Video"
say "posted: New Video — John Appleseed posted a new video (waiting for a response)"
press select
shot 04-long-look-video
press select select
wait "$video"
say "org.example.Video got back: $(tail -n 1 "$run/video.out")"
await notifications 2

step "A meeting invite from notify-send, waited on with --wait"
notify-send --app-name Calendar --wait -A accept=Accept -A decline=Decline "Design review" "Today 14:00 in Room 4 — join?" \
  > "$run/meeting.out" &
pids+=($!)
meeting=$!
await showing "Design review"
say "posted: Design review — Today 14:00 in Room 4 (notify-send --wait)"
press select select
shot 05-long-look-meeting
press select
wait "$meeting"
say "notify-send printed: $(cat "$run/meeting.out")"

step "Replying to John's comment from the thread, with a suggested reply"
home
shot 06-watch-face
press down
shot 07-list
press select
shot 08-thread
press down select select select
shot 09-text-reply
press select
wait "$thai_comment"
say "org.example.Social got back: $(tail -n 1 "$run/thai-comment.out")"

step "A repeating stand-up reminder: the wearable keeps a copy to fire while the phone is away"
say "relayctl schedule → $("$relayctl" schedule --app-id org.example.Calendar --id stand-up --title "Stand-up" \
  --body "Room 2" --at 09:30 --repeats)"
await schedules 1
say "wearable: $(field schedules) scheduled request(s), next local fire $(field nextLocalFire)"

step "Do not disturb on the phone: an ordinary notification arrives silently, a critical one still alerts, and the wearable says why"
say "relayctl dnd on --for 1h → $(phone dnd on --for 1h)"
before=$(field alerts)
notify-send "Weekly newsletter" "Ten links you missed"
for _ in $(seq 100); do wearable notifications | grep -q "Weekly newsletter" && break; sleep 0.1; done
newsletter=$(wearable notifications --json | python3 -c 'import json, sys; print(next(n["id"] for n in json.load(sys.stdin)["notifications"] if n["title"] == "Weekly newsletter"))')
say "wearable: $(field alerts) alert(s), as before ($before): relayctl why $newsletter →"
wearable why "$newsletter" | sed 's/^/     /'
notify-send -u critical "Smoke alarm" "Kitchen"
await showing "Smoke alarm"
say "notify-send -u critical Smoke alarm → wearable: $(field screen), $(field alerts) alert(s)"
shot 11-critical-through-dnd
say "relayctl dnd off → $(phone dnd off)"
home

step "Do not disturb from the wrist: Up on the watch face opens the controls; the phone follows"
press up
shot 12-controls
press select
await doNotDisturb "on (turned on by hand)"
for _ in $(seq 100); do phone dnd status | grep -q "turned on by hand" && break; sleep 0.1; done
say "relayctl dnd status (the phone) → $(phone dnd status)"
home
shot 13-watch-face-dnd
press up select
await doNotDisturb off
home

step "A mute from the wrist: the long look's Mute… silences the app's next notification on both sides"
notify-send -a CI "Build failed" "main, 3 tests"
await showing "Build failed"
press select select down down select
shot 14-mute-menu
press select
for _ in $(seq 100); do phone mutes | grep -q "^CI" && break; sleep 0.1; done
say "relayctl mutes (the phone) → $(phone mutes)"
home
before=$(field alerts)
notify-send -a CI "Build fixed" "main is green"
for _ in $(seq 100); do wearable notifications | grep -q "Build fixed" && break; sleep 0.1; done
fixed=$(wearable notifications --json | python3 -c 'import json, sys; print(next(n["id"] for n in json.load(sys.stdin)["notifications"] if n["title"] == "Build fixed"))')
say "wearable: $(field alerts) alert(s), as before ($before): relayctl why $fixed →"
wearable why "$fixed" | sed 's/^/     /'
say "relayctl mutes remove CI → $(phone mutes remove CI)"

step "A KDE inline reply answered from the wrist with a canned reply (phone.toml's [replies])"
dbus-monitor --session "type='signal',interface='org.freedesktop.Notifications',member='NotificationReplied'" > "$run/replied.out" 2>/dev/null &
pids+=($!)
reply_id=$(gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
  --method org.freedesktop.Notifications.Notify Chat 0 "" "Ana" "Lunch today?" "['inline-reply', 'Reply']" "{}" 0 | grep -o '[0-9]*' | tail -n 1)
await showing "Ana"
say "posted with gdbus: Ana — Lunch today? (id $reply_id, actions ['inline-reply', 'Reply'])"
press select select select
shot 16-canned-replies
press down select
for _ in $(seq 100); do grep -q 'string "On my way"' "$run/replied.out" && break; sleep 0.1; done
say "the app heard: NotificationReplied($reply_id, $(grep -o 'string "[^"]*"' "$run/replied.out" | tail -n 1 | cut -d' ' -f2-))"
home

step "Text in every script: right to left, joined, and colour emoji (HarfBuzz, FriBidi, ICU, Noto)"
notify-send -a Messages "שלום עולם" "مرحبا بالعالم — נפגשים ב־14:30 בחדר 204"
await showing "שלום עולם"
say "notify-send 'שלום עולם' 'مرحبا بالعالم — …' → wearable: $(field screen)"
press select
shot 17-right-to-left
home
notify-send -a Messages "Party 🎉" "See you there 🇹🇭 🇯🇵 👨‍👩‍👧 👍🏽 ❤️ 😂"
await showing "Party 🎉"
press select
shot 18-colour-emoji
home

step "What the phone and the wearable hold now"
phone delivered | sed 's/^/   phone: /'
say "wearable: $(field notifications) notification(s), $(field alerts) alert(s), link $(field link), $(field queued) queued"
home
shot 15-end

step "Done in $((SECONDS - started)) s"
say "Screenshots of the wearable are in demo-output/; the agents' logs are there too."
