# Sourced by phone.sh, wearable.sh and stranger.sh, which guest.sh runs at once in the Bluetooth
# VM, each side on its own controller: helpers, and how the sides meet.
#
# Environment: OUT (the folder shared with the host), BIN (the built executables), ROLE (phone,
# wearable or stranger), ADAPTER (this side's controller: hci0, hci1 or hci2).
set -uo pipefail
: "${OUT:?set OUT to a folder shared with the host}" "${BIN:?set BIN to the folder of the built executables}" "${ROLE:?}" "${ADAPTER:?}"
export PATH="$BIN:$PATH"
RUN=/tmp/relay-vm
SYNC=$OUT/sync
mkdir -p "$RUN" "$OUT/screens" "$SYNC"
SUMMARY="$OUT/summary-$ROLE.txt"
: >"$SUMMARY"
failures=0
PIDS=()

log() { echo "[$(date +%T) $ROLE] $*" | tee -a "$OUT/rig-$ROLE.log"; }
pass() { echo "PASS $ROLE: $*" >>"$SUMMARY"; log "PASS $*"; }
# Once the run is aborted (guest.sh), a side's first failure ends it: the steps after it would
# act on a rig that is gone or out of time, and their failures would only mislead.
fail() {
    echo "FAIL $ROLE: $*" >>"$SUMMARY"; log "FAIL $*"; failures=$((failures + 1))
    [ ! -e "$SYNC/aborted" ] || { log "the run was aborted ($(cat "$SYNC/aborted")): stopping"; finish; }
}
# A benchmark's figure: printed in the summary, never a pass or a failure.
bench() { echo "BENCH $ROLE: $*" >>"$SUMMARY"; log "BENCH $*"; }

# The side whose end makes waiting pointless: the phone leads, the others follow it.
OTHER=$([ "$ROLE" = phone ] && echo wearable || echo phone)
# Waits (polling every 0.2 s, bounded by $1 seconds) until the command after it succeeds; gives
# up at once when the other side has finished or the run was aborted (guest.sh: btvirt gone, or
# out of time), since what is waited for can no longer come.
until_true() {
    local seconds=$1; shift
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        [ "$*" = "test -e $SYNC/finished-$OTHER" ] || [ ! -e "$SYNC/finished-$OTHER" ] || return 1
        [ ! -e "$SYNC/aborted" ] || return 1
        sleep 0.2
    done
}

# The two sides meet through files in the shared folder: `signal NAME [VALUE]` leaves one
# (written whole, then renamed, so the other side never reads half of it); `await NAME SECONDS`
# waits for it and prints its value.
signal() { echo "${2:-}" >"$SYNC/.$1.$ROLE" && mv "$SYNC/.$1.$ROLE" "$SYNC/$1"; log "signalled $1${2:+ ($2)}"; }
await() {
    if until_true "$2" test -e "$SYNC/$1"; then cat "$SYNC/$1"; else log "gave up waiting for $1 after $2 s"; return 1; fi
}

CONTROL="$RUN/$ROLE.sock"
# One field of this VM's agent's `relayctl status --json` (the phone's needs --phone).
field() {
    local key=$1
    relayctl status --json --control-socket "$CONTROL" $([ "$ROLE" = phone ] && echo --phone) 2>/dev/null |
        python3 -c "import json,sys; v=json.load(sys.stdin).get('$key'); print('' if v is None else v)"
}
is() { [ "$(field "$1")" = "$2" ]; }
adapter_property() {
    busctl --system get-property org.bluez "/org/bluez/$ADAPTER" org.bluez.Adapter1 "$1" | cut -d' ' -f2- | tr -d '"'
}

finish() {
    if [ "$ROLE" != stranger ]; then
        log "collecting status"
        relayctl status --control-socket "$CONTROL" $([ "$ROLE" = phone ] && echo --phone) >"$OUT/$ROLE-status.txt" 2>&1
    fi
    if [ ${#PIDS[@]} -gt 0 ]; then
        kill "${PIDS[@]}" 2>/dev/null
        sleep 1
        kill -9 "${PIDS[@]}" 2>/dev/null
    fi
    echo "failures: $failures" >>"$SUMMARY"
    log "done, $failures failure(s)"
    signal "finished-$ROLE"
    exit $((failures > 0))
}

ADDRESS=$(adapter_property Address)
log "this side's controller: $ADAPTER ($ADDRESS)"
