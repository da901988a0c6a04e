#!/usr/bin/env bash
# The change-stream reader on Beam's portable Flink runner, for as long as a
# user would leave it: `pipelines/clicks` on prism appends to
# clicks.user_clicks at the seed's rate while `pipelines/clicks_per_minute`
# reads it on Flink (checkpoints every CHECKPOINT, a poll every POLL), both
# through one `icebeam serve`; with OUTAGE=S the catalog is stopped for S
# seconds a third of the way in and started again on the same state.
#
#   interop/soak-clicks-per-minute.sh                    # 12 minutes, poll 1 s, checkpoints 5 s
#   OUTAGE=15 interop/soak-clicks-per-minute.sh          # the same through a 15 s catalog outage
#   MINUTES=3 INTERVAL=200ms interop/soak-clicks-per-minute.sh
#
# It reports Flink's completed checkpoints and their sizes (the median of
# the last quarter against the first quarter's: a source whose state grows
# with its polls shows it here), job restarts, and checks the output
# against a recount made snapshot by snapshot from the source
# (interop/recount_per_minute.py, pyiceberg): every complete (user, minute)
# once, equal to the clicks of the source snapshots committed in that
# minute. It exits 1 when either check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=interop/env.sh
source interop/env.sh
MINUTES=${MINUTES:-12}
INTERVAL=${INTERVAL:-5s}
TRIGGER=${TRIGGER:-20}
POLL=${POLL:-1s}
CHECKPOINT=${CHECKPOINT:-5s}
OUTAGE=${OUTAGE:-0}
WORK=${SOAK_CACHE:-$ROOT/.cache/soak-clicks-per-minute}
rm -rf "$WORK"
mkdir -p "$WORK/conf"
ensure_python
for p in clicks clicks_per_minute; do CGO_ENABLED=0 go build -trimpath -o "$WORK/$p" "./pipelines/$p"; done
CGO_ENABLED=0 go build -trimpath -o "$WORK/icebeam" ./cmd/icebeam

cat > "$WORK/conf/flink-conf.yaml" << CONF
execution.checkpointing.interval: $CHECKPOINT
state.checkpoints.dir: file://$WORK/checkpoints
parallelism.default: 2
taskmanager.numberOfTaskSlots: 2
CONF
PORT=$(free_port)
URI=http://127.0.0.1:$PORT
SERVE_PID= JOBSERVER_PID= CLICKS_PID= OUTAGE_PID=
cleanup() {
  [ -z "$OUTAGE_PID" ] || kill "$OUTAGE_PID" 2> /dev/null || true
  [ -z "$CLICKS_PID" ] || kill "$CLICKS_PID" 2> /dev/null || true
  [ -z "$SERVE_PID" ] || kill "$SERVE_PID" 2> /dev/null || true
  [ -z "$JOBSERVER_PID" ] || scripts/jobserver.sh stop "$JOBSERVER_PID" > /dev/null 2>&1 || true
}
trap cleanup EXIT
serve() {
  "$WORK/icebeam" serve --addr "127.0.0.1:$PORT" --local_dir "$WORK/lakehouse" >> "$WORK/serve.log" 2>&1 &
  SERVE_PID=$!
  wait_up "$URI/v1/config" "$SERVE_PID" 60 || { cat "$WORK/serve.log"; exit 1; }
}
serve
read -r JOBSERVER_PID ENDPOINT < <(JOBSERVER_LOG_LEVEL=info scripts/jobserver.sh start flink --job-port 0 --conf-dir "$WORK/conf" --log "$WORK/jobserver.log")

log "clicks on prism: a row every $INTERVAL, a commit every ${TRIGGER}s, for ${MINUTES}m"
"$WORK/clicks" --catalog_uri="$URI" --interval="$INTERVAL" --triggering_frequency_seconds="$TRIGGER" \
  --duration="${MINUTES}m" > "$WORK/clicks.log" 2>&1 &
CLICKS_PID=$!
# clicks_per_minute starts on an existing table: the one clicks creates.
for i in $(seq 240); do
  curl -fs -o /dev/null "$URI/v1/namespaces/clicks/tables/user_clicks" && break
  kill -0 "$CLICKS_PID" 2> /dev/null || { tail -n 20 "$WORK/clicks.log"; exit 1; }
  [ "$i" -lt 240 ] || { echo "clicks created no table in 2 minutes" >&2; exit 1; }
  sleep 0.5
done
OUTAGE_PID=
if [ "$OUTAGE" -gt 0 ]; then
  (
    sleep $((MINUTES * 20))
    log "catalog down for ${OUTAGE}s"
    kill "$SERVE_PID"
    sleep "$OUTAGE"
    "$WORK/icebeam" serve --addr "127.0.0.1:$PORT" --local_dir "$WORK/lakehouse" >> "$WORK/serve.log" 2>&1 &
    echo $! > "$WORK/serve.pid"
    log "catalog up again"
  ) &
  OUTAGE_PID=$!
fi
# Reading goes on a trigger period past the source's end, so that its last
# commit is read.
log "clicks_per_minute on Flink ($ENDPOINT): a poll every $POLL, checkpoints every $CHECKPOINT"
start=$(date +%s)
"$WORK/clicks_per_minute" --runner=flink --endpoint="$ENDPOINT" --environment_type=LOOPBACK \
  --checkpointing_interval="$CHECKPOINT" --catalog_uri="$URI" --backfill --poll_interval="$POLL" \
  --duration="$((MINUTES * 60 + TRIGGER + 10))s" > "$WORK/clicks_per_minute.log" 2>&1 ||
  { tail -n 20 "$WORK/clicks_per_minute.log"; exit 1; }
log "clicks_per_minute ended after $(($(date +%s) - start))s"
wait "$CLICKS_PID" || { tail -n 20 "$WORK/clicks.log"; exit 1; }
CLICKS_PID=
if [ -n "$OUTAGE_PID" ]; then
  wait "$OUTAGE_PID"
  OUTAGE_PID=
  SERVE_PID=$(cat "$WORK/serve.pid")
fi

status=0
"$VENV/bin/python" - "$WORK/jobserver.log" << 'PY' || status=1
import re, statistics, sys
sizes = [int(m.group(1)) for m in re.finditer(r"Completed checkpoint \d+ for job \S+ \((\d+) bytes", open(sys.argv[1]).read())]
restarts = open(sys.argv[1]).read().count("Restoring job")
q = len(sizes) // 4
if q == 0:
    sys.exit(f"checkpoints: only {len(sizes)} completed")
first, last = statistics.median(sizes[:q]), statistics.median(sizes[-q:])
print(f"checkpoints: {len(sizes)} completed, {restarts} job restarts; size median {first:.0f} B in the first quarter, "
      f"{last:.0f} B in the last ({last / first:.2f}x); smallest {min(sizes)}, largest {max(sizes)}")
if last > 1.5 * first:
    sys.exit("checkpoints: the last quarter is more than 1.5x the first: state grows")
PY
"$VENV/bin/python" interop/recount_per_minute.py "$URI" clicks.user_clicks clicks.user_clicks_per_minute || status=1
exit $status
