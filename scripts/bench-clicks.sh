#!/usr/bin/env bash
# Streaming benchmark: the clicks pipeline on prism, generator as fast as it
# goes, into a table of the standalone local catalog (`icebeam serve`). From
# the committed table's snapshots it reports rows per commit, sustained rows/s
# and each commit's latency after its window's end; /usr/bin/time gives the
# pipeline's peak RSS.
#
#   ./scripts/bench-clicks.sh                 # 100 s of rows, 1 µs apart, 20 s trigger
#   DURATION=30s TRIGGER=5 ./scripts/bench-clicks.sh
#   RUNNER=flink INTERVAL=5us DURATION=10m ./scripts/bench-clicks.sh
#   TABLE='many.clicks_{user_id}' USERS=1000 INTERVAL=5us DURATION=20s TRIGGER=5 ./scripts/bench-clicks.sh
#
# A TABLE template spreads the rows over USERS tables (default 10, the
# example's user ids); the report is then the commits of all of them (see
# scripts/lib/panes.py) and the row count, not each seq.
#
# RUNNER=flink runs the same job on Beam's portable Flink runner (a job
# server from scripts/jobserver.sh, parallelism 2, checkpoints every
# CHECKPOINT, default 5s, workers in this process) and adds what Flink did:
# checkpoints completed per minute and their size, and job restarts. Every
# run ends by checking the committed rows: with SEQ=1 (the default on Flink)
# each seq 0..N-1 exactly once, else the row count.
#
# Commits and their latency after the window's end: scripts/lib/panes.py.
#
# Sustained rows/s = committed rows / (last commit - pipeline start), start-up
# included. A 1 µs interval is 1,000,000 rows due per second: more than the
# pipeline does, so the generator runs flat out and the run ends when all
# DURATION/INTERVAL rows are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/serve.sh
source scripts/lib/serve.sh
DURATION=${DURATION:-100s}
INTERVAL=${INTERVAL:-1us}
TRIGGER=${TRIGGER:-20}
TABLE=${TABLE:-clicks.user_clicks}
USERS=${USERS:-10}
RUNNER=${RUNNER:-prism}
CHECKPOINT=${CHECKPOINT:-5s}
SEQ=${SEQ:-$([ "$RUNNER" = flink ] && echo 1 || echo 0)}
CACHE=${BENCH_CACHE:-.cache/bench-clicks}
rm -rf "$CACHE/lakehouse"
mkdir -p "$CACHE"

CGO_ENABLED=0 go build -trimpath -o "$CACHE/clicks" ./pipelines/clicks
CGO_ENABLED=0 go build -trimpath -o "$CACHE/icebeam" ./cmd/icebeam

JOBSERVER_PID=
SERVE_PID=
trap '[ -z "$SERVE_PID" ] || kill "$SERVE_PID" 2>/dev/null || true; [ -z "$JOBSERVER_PID" ] || scripts/jobserver.sh stop "$JOBSERVER_PID" >/dev/null 2>&1 || true' EXIT
start_serve "$CACHE/icebeam" "$CACHE/lakehouse" "$CACHE/serve.log"
URI=$SERVE_URI

RUNNER_ARGS=()
if [ "$RUNNER" = flink ]; then
  mkdir -p "$CACHE/flink-conf"
  printf 'parallelism.default: 2\ntaskmanager.numberOfTaskSlots: 2\nstate.checkpoints.dir: file://%s\n' \
    "$(cd "$CACHE" && pwd)/checkpoints" > "$CACHE/flink-conf/flink-conf.yaml"
  read -r JOBSERVER_PID ENDPOINT < <(JOBSERVER_LOG_LEVEL=info scripts/jobserver.sh start flink --job-port 0 \
    --conf-dir "$CACHE/flink-conf" --log "$CACHE/jobserver.log" --owner $$)
  RUNNER_ARGS=(--runner=flink --endpoint="$ENDPOINT" --environment_type=LOOPBACK --checkpointing_interval="$CHECKPOINT")
fi
[ "$SEQ" = 1 ] && RUNNER_ARGS+=(--seq_column)

echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "run: clicks ${RUNNER_ARGS[*]} --users=$USERS --interval=$INTERVAL --duration=$DURATION --triggering_frequency_seconds=$TRIGGER --iceberg_table=$TABLE --catalog_uri=$URI"
START_MS=$(date +%s%3N)
/usr/bin/time -v -o "$CACHE/time.txt" "$CACHE/clicks" "${RUNNER_ARGS[@]}" --catalog_uri="$URI" --iceberg_table="$TABLE" --users="$USERS" \
  --interval="$INTERVAL" --duration="$DURATION" --triggering_frequency_seconds="$TRIGGER" > "$CACHE/clicks.log" 2>&1 \
  || { tail -20 "$CACHE/clicks.log"; echo "clicks failed" >&2; exit 1; }
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E "Elapsed|Maximum resident|Percent of CPU" "$CACHE/time.txt" | sed 's/^\s*/pipeline /'

python3 scripts/lib/panes.py "$URI" "$TABLE" "$START_MS" "$TRIGGER" | tee "$CACHE/panes.txt"
python3 - "$CACHE/panes.txt" "$DURATION" "$INTERVAL" <<'PY'
import json, sys
res = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
units = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
def secs(d):
    for u in ("ns", "us", "µs", "ms", "s", "m", "h"):
        if d.endswith(u) and d[:-len(u)].replace(".", "").isdigit():
            return float(d[:-len(u)]) * units[u]
    raise SystemExit(f"cannot parse duration {d}")
due = round(secs(sys.argv[2]) / secs(sys.argv[3]))
print(f"rows committed: {res['rows']:,} (due: {due:,}{'' if res['rows'] == due else ' MISMATCH'})")
PY

if [ "$RUNNER" = flink ]; then
  echo
  python3 - "$CACHE/jobserver.log" <<'PY'
import re, sys, collections
per_min, sizes, restarts, failed = collections.Counter(), [], 0, 0
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"(\d\d:\d\d):\d\d\.\d+ .*Completed checkpoint (\d+) for job \S+ \((\d+) bytes", line)
    if m:
        per_min[m.group(1)] += 1
        sizes.append(int(m.group(3)))
    restarts += "Restoring job" in line
    failed += "Failed to trigger or complete checkpoint" in line
print(f"flink: {len(sizes)} checkpoints completed, {failed} failed, {restarts} job restarts")
print("checkpoints per minute: " + ", ".join(f"{k} {v}" for k, v in sorted(per_min.items())))
if sizes:
    q = len(sizes) // 4 or 1
    print(f"checkpoint size (bytes): first quarter median {sorted(sizes[:q])[q//2]:,}, last quarter median {sorted(sizes[-q:])[q//2]:,}, max {max(sizes):,}")
PY
fi

# icebeam scan holds the table in memory: check seqs of runs up to 20 M rows.
ROWS_DUE=$(python3 -c "
import sys
u={'ns':1e-9,'us':1e-6,'ms':1e-3,'s':1.0,'m':60.0,'h':3600.0}
def secs(d):
    for k in ('ns','us','ms','s','m','h'):
        if d.endswith(k) and d[:-len(k)].replace('.','').isdigit(): return float(d[:-len(k)])*u[k]
print(round(secs('$DURATION')/secs('$INTERVAL')))")
if [ "$SEQ" = 1 ] && [[ "$TABLE" == *"{"* ]]; then
  echo "rows check: the row count above (a template's tables are not scanned)"
elif [ "$SEQ" = 1 ] && [ "$ROWS_DUE" -gt 20000000 ]; then
  echo "rows check: skipped for $ROWS_DUE rows (icebeam scan holds the table in memory; the row count above is checked)"
elif [ "$SEQ" = 1 ]; then
  "$CACHE/icebeam" scan --catalog_uri="$URI" --format=csv --limit=0 "$TABLE" | tail -n +2 | cut -d, -f1 > "$CACHE/seqs.txt"
  python3 - "$CACHE/seqs.txt" "$DURATION" "$INTERVAL" <<'PY'
import collections, sys
path, duration, interval = sys.argv[1:]
units = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
def secs(d):
    for u in ("ns", "us", "ms", "s", "m", "h"):
        if d.endswith(u) and d[:-len(u)].replace(".", "").isdigit():
            return float(d[:-len(u)]) * units[u]
    raise SystemExit(f"cannot parse duration {d}")
n = round(secs(duration) / secs(interval))
c = collections.Counter(int(l) for l in open(path) if l.strip())
lost = sum(1 for i in range(n) if c[i] == 0)
dup = sum(v - 1 for v in c.values() if v > 1)
print(f"rows check: seq 0..{n-1}: {lost} lost, {dup} duplicated, {sum(1 for k in c if k >= n)} beyond")
sys.exit(1 if lost or dup else 0)
PY
fi
