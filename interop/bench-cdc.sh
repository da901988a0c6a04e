#!/usr/bin/env bash
# Row-level changes benchmark: `pipelines/cdc` on prism against Spark 3.5's
# MERGE INTO on the same changes, in one run, both through one `icebeam
# serve` catalog.
#
#   interop/bench-cdc.sh                                 # 1,000,000 keys, 200,000 changes/s for 30 minutes
#   DURATION=3m interop/bench-cdc.sh                     # shorter
#   RATE=8000000 DURATION=80s SPARK_DRIVER_MEMORY=14g interop/bench-cdc.sh
#                                                        # about our ceiling on 2 cores (2026-12-07), against
#                                                        # Spark on 20 s batches of 160 M changes; offered
#                                                        # more, the generator falls behind and the model
#                                                        # check of all the changes due fails
#
# The changes: `cdc --changes=mixed --keys=KEYS` (transforms/cdc Mixed, the
# same stream rebuilt independently in interop/cdc_mixed.py): a load of
# KEYS accounts, then 60% updates, 25% inserts, 15% deletes of random keys,
# offered at RATE changes per second for DURATION, committed every TRIGGER
# seconds into bench.accounts (format v3: deletion vectors; FORMAT=2 for
# equality deletes).
#
# It reports, for ours:
#   - changes per second: committed changes over pipeline start to last
#     commit, and in steady state (panes but the first and last; see
#     scripts/lib/panes.py); the run keeps up when these equal RATE;
#   - commit latency after each window's end (median, max, share within 1 s);
#   - CPU seconds (user+sys) and peak RSS of the pipeline;
#   - read cost: `icebeam maintain --rewrite_data_files --min_input_files=2`
#     (every file into one where they fit), then READS full
#     scans (every column, rows counted and balance_cents summed, by
#     icebergio.ReadRecords on prism: interop/goread) of the snapshot the
#     stream left and of the compacted one, alternately; medians and their
#     ratio.
# The anchor: Spark (local[2], interop/spark/cdc_merge.py) loads the same
# KEYS rows into a v3 merge-on-read table, then MERGEs SPARK_BATCHES
# micro-batches of RATE x TRIGGER changes each (what one of our panes
# holds), timed from reading the batch's Parquet to the end of the MERGE;
# changes per second = batch size / median batch time.
# Last, Spark checks both tables (ours after maintenance) against the model
# the changes leave (interop/cdc_mixed.py), row by row.
#
# Medians are over the READS scans and the SPARK_BATCHES batches of one run;
# changes per second and latency are one run's. Wrap it in
# `flock /tmp/bench.lock` on a shared machine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
KEYS=${KEYS:-1000000}
RATE=${RATE:-200000}
DURATION=${DURATION:-30m}
TRIGGER=${TRIGGER:-20}
FORMAT=${FORMAT:-3}
SPARK_BATCHES=${SPARK_BATCHES:-3}
READS=${READS:-3}
OUT="$CACHE/bench-cdc"

bench_tools bench-cdc spark
bench_catalog
export PYTHONDONTWRITEBYTECODE=1

read -r INTERVAL_NS SECONDS DUE BATCH < <(python3 - "$RATE" "$DURATION" "$KEYS" "$TRIGGER" <<'PY'
import sys
rate, duration, keys, trigger = float(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
units = {"ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
for u in ("ms", "s", "m", "h"):
    if duration.endswith(u) and duration[:-len(u)].replace(".", "").isdigit():
        secs = float(duration[:-len(u)]) * units[u]
        break
else:
    raise SystemExit(f"bench-cdc: cannot parse DURATION={duration}")
interval = round(1e9 / rate)
# The generator emits change i at start + i*interval, i < duration/interval.
print(interval, secs, round(secs * 1e9) // interval, round(rate * trigger))
PY
)
echo "changes: load of $KEYS keys, then 60/25/15 updates/inserts/deletes at $RATE/s for $DURATION ($DUE changes in all), committed every ${TRIGGER}s, format v$FORMAT"
echo "machine: $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Ours.
START_MS=$(date +%s%3N)
/usr/bin/time -f "%e %M %U %S" -o "$OUT/cdc.time" "$BIN/cdc" --catalog_uri="$CATALOG_URI" --iceberg_table=bench.accounts \
  --changes=mixed --keys="$KEYS" --interval="${INTERVAL_NS}ns" --duration="$DURATION" \
  --triggering_frequency_seconds="$TRIGGER" --format_version="$FORMAT" > "$OUT/cdc.log" 2>&1 \
  || { tail -30 "$OUT/cdc.log" >&2; echo "bench-cdc: cdc failed (log $OUT/cdc.log)" >&2; exit 1; }
read -r WALL KB USR SYS < "$OUT/cdc.time"
echo "icebeam cdc on prism: ${WALL}s wall, $(python3 -c "print(round($USR + $SYS, 1))") CPU s, $((KB / 1024)) MiB peak RSS; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -A5 "^Applied" "$OUT/cdc.log" || true
python3 scripts/lib/panes.py "$CATALOG_URI" bench.accounts "$START_MS" "$TRIGGER" icebeam.change-rows > "$OUT/panes.txt"
grep -v '^{' "$OUT/panes.txt"
OURS=$(tail -1 "$OUT/panes.txt")

# 2. Read cost, before and after maintenance.
# scan SNAPSHOT: one full scan of that snapshot of the table.
scan() {
  /usr/bin/time -f "%e %M" -o "$OUT/scan.time" "$BIN/goread" --catalog_uri="$CATALOG_URI" --table=bench.accounts \
    --sum=balance_cents --snapshot_id="$1" > "$OUT/scan.log" 2> "$OUT/scan.err" \
    || { tail -20 "$OUT/scan.err" >&2; echo "bench-cdc: scan failed" >&2; exit 1; }
  echo "$(cut -d' ' -f1 "$OUT/scan.time") $(tail -1 "$OUT/scan.log")"
}
# files: the current snapshot's id, then what its files hold.
files() {
  python3 - "$CATALOG_URI" <<'PY'
import json, sys, urllib.request
meta = json.load(urllib.request.urlopen(f"{sys.argv[1]}/v1/namespaces/bench/tables/accounts"))["metadata"]
cur = [s for s in meta["snapshots"] if s["snapshot-id"] == meta["current-snapshot-id"]][0]["summary"]
print(meta["current-snapshot-id"], f"{cur.get('total-data-files')} data files, {cur.get('total-delete-files')} delete files, "
      f"{cur.get('total-records')} rows stored, {cur.get('total-position-deletes')} deleted by position, "
      f"{cur.get('total-equality-deletes')} by equality")
PY
}
: > "$OUT/reads.txt"
read -r STREAMED WHAT < <(files)
echo "table as the stream left it (snapshot $STREAMED): $WHAT"
/usr/bin/time -f "%e" -o "$OUT/maintain.time" "$BIN/icebeam" maintain --catalog_uri="$CATALOG_URI" --table=bench.accounts \
  --rewrite_data_files --min_input_files=2 > "$OUT/maintain.log" 2>&1 || { tail -20 "$OUT/maintain.log" >&2; exit 1; }
read -r COMPACTED WHAT < <(files)
echo "icebeam maintain --rewrite_data_files: $(cat "$OUT/maintain.time")s; table now (snapshot $COMPACTED): $WHAT"
# The two snapshots alternately, so that load on the machine falls on both.
for i in $(seq "$READS"); do
  r=$(scan "$STREAMED"); echo "  scan $i as streamed: $r"; echo "before $r" >> "$OUT/reads.txt"
  r=$(scan "$COMPACTED"); echo "  scan $i compacted:   $r"; echo "after $r" >> "$OUT/reads.txt"
done

# 3. The anchor: Spark MERGE INTO.
echo "spark: load $KEYS rows, then $SPARK_BATCHES MERGE INTO batches of $BATCH changes"
interop/spark/submit.sh "$CATALOG_URI" interop/spark/cdc_merge.py merge "$KEYS" "$BATCH" "$SPARK_BATCHES" "$WORK" \
  > "$OUT/spark.log" 2> "$OUT/spark.err" || { tail -30 "$OUT/spark.err" >&2; echo "bench-cdc: spark failed" >&2; exit 1; }
grep '^{' "$OUT/spark.log" | sed 's/^/  /'
SPARK_APPLIED=$(grep '^{' "$OUT/spark.log" | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["applied"])')

# 4. Both tables against the model.
interop/spark/submit.sh "$CATALOG_URI" interop/spark/cdc_merge.py check lakehouse.bench.accounts "$DUE" "$KEYS" "$WORK" \
  > "$OUT/check-ours.log" 2> "$OUT/check-ours.err" || { tail -30 "$OUT/check-ours.err" >&2; exit 1; }
interop/spark/submit.sh "$CATALOG_URI" interop/spark/cdc_merge.py check lakehouse.bench.spark_accounts "$SPARK_APPLIED" "$KEYS" "$WORK" \
  > "$OUT/check-spark.log" 2> "$OUT/check-spark.err" || { tail -30 "$OUT/check-spark.err" >&2; exit 1; }
CHECK_OURS=$(grep '^{' "$OUT/check-ours.log" | tail -1)
CHECK_SPARK=$(grep '^{' "$OUT/check-spark.log" | tail -1)
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$OURS" "$OUT/reads.txt" "$OUT/spark.log" "$CHECK_OURS" "$CHECK_SPARK" "$DUE" "$RATE" "$USR" "$SYS" <<'PY'
import json, statistics, sys
ours, reads, spark_log, check_ours, check_spark = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), json.loads(sys.argv[5])
due, rate, cpu = int(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8]) + float(sys.argv[9])
ok = True
for c in (check_ours, check_spark):
    if c["missing"] or c["extra"]:
        print(f"bench-cdc: {c['table']} differs from the model of {c['changes']:,} changes: {c['missing']} rows missing, {c['extra']} extra")
        ok = False
    else:
        print(f"{c['table']}: equals the model of {c['changes']:,} changes ({c['model_rows']:,} rows)")
if ours["rows"] != due:
    print(f"bench-cdc: ours committed {ours['rows']:,} changes, {due:,} were due")
    ok = False
times = {"before": [], "after": []}
for line in open(reads):
    when, secs, rest = line.split(" ", 2)
    times[when].append(float(secs))
before, after = statistics.median(times["before"]), statistics.median(times["after"])
batches = [json.loads(l) for l in open(spark_log) if l.startswith("{")]
spark = statistics.median(b["changes"] / b["seconds"] for b in batches)
steady = ours.get("steady", ours["sustained"])
print(f"\nours: {steady:,.0f} changes/s in steady state ({ours['sustained']:,.0f} start to last commit; offered {rate:,.0f}), "
      f"{cpu / due * 1e6:.2f} CPU s per million changes")
print(f"commit latency after window end: median {ours['latency_ms']['median']} ms, max {ours['latency_ms']['max']} ms, "
      f"{ours['within_1s']}/{ours['commits']} within 1 s")
print(f"spark MERGE INTO: {spark:,.0f} changes/s (median of {len(batches)} batches); ours / spark = {steady / spark:.1f}x (goal >= 5x)")
print(f"read: {before:.2f} s as streamed, {after:.2f} s compacted (medians of {len(times['before'])}): {before / after:.2f}x (goal <= 1.5x)")
sys.exit(0 if ok else 1)
PY
