#!/usr/bin/env bash
# PostgreSQL to Iceberg through Debezium, side by side: PostgreSQL's own
# pgbench changes three tables, Debezium's connector captures them into Kafka
# (one topic per table), and each system lands the topics in Iceberg tables of
# its own (one per source table) in the same catalog (`icebeam serve`), one
# system at a time, RUNS runs each (the order rotating), medians reported
# (issue 43, item 6).
#
#   ./scripts/bench-debezium.sh                  # throughput and latency, 3 runs each (about an hour)
#   SCALE=1 TRANSACTIONS=2000 RUNS=1 LAT_SECONDS=20 WARMUP=5 ./scripts/bench-debezium.sh   # a short check
#   MODES=readcost ./scripts/bench-debezium.sh   # 30 minutes of streaming, then the read cost
#   MODES=readcost DURATION=120 RC_SCALE=1 ./scripts/bench-debezium.sh                      # its short check
#
# The workload: pgbench's TPC-B-like transaction (its built-in tpcb-like script,
# kept in scripts/kafka-bench/tpcb.sql), one UPDATE each of pgbench_accounts,
# pgbench_tellers and pgbench_branches and an INSERT into pgbench_history,
# with one addition: each UPDATE also sets a column mtime_us (bigint, added by
# this script) to the transaction's clock in epoch microseconds, the source
# time the latency is measured from. pgbench_history has no primary key and is
# left out of the capture (Debezium's --tables; the publication holds only the
# other three): Flink's upsert sink needs a key (pipelines/kafka lands a keyless
# table append-only, but both sides are to land the same tables the same way).
# The three tables get REPLICA IDENTITY FULL: Flink's
# debezium-json refuses an update without its `before` row, which PostgreSQL
# only logs with it; the events are the same for both systems. The tellers and
# branches are few (10 and 1 per SCALE), so most changes hit hot keys.
#
# Systems (SYSTEMS, default "ours-prism flink-sql"):
#   ours-prism  pipelines/kafka --format=debezium on prism: tables format v3 with
#               deletion vectors, --triggering_frequency_seconds=COMMIT; --bounded in
#               throughput mode, streaming (SIGINT to end) otherwise.
#   flink-sql   Flink 1.20.1 SQL in a local mini cluster (scripts/kafka-bench/flink/
#               FlinkDebeziumBench.java): per table a `kafka` table (flink-connector-kafka
#               3.4.0-1.20) in format debezium-json (flink-json 1.20.1) with
#               'debezium-json.schema-include'='true', INSERT INTO an Iceberg table
#               (iceberg-flink-runtime-1.20 1.10.1) with PRIMARY KEY NOT ENFORCED,
#               'format-version'='2', 'write.upsert.enabled'='true' (equality deletes),
#               the three INSERTs in one statement set, parallelism PARALLELISM, a
#               checkpoint (hence a commit) every COMMIT s. Bounded
#               ('scan.bounded.mode'='latest-offset') in throughput mode.
#
# Modes (MODES, default "throughput latency"; readcost on request):
#   throughput  once: a database of SCALE (100,000 x SCALE accounts), captured by Debezium
#               (its snapshot, as op r), then TRANSACTIONS pgbench transactions by CLIENTS
#               clients as fast as they go (3 changes each); Debezium is stopped once every
#               change is in Kafka. Each run reads the topics from the start into fresh
#               tables and must end (bounded) within RUN_TIMEOUT.
#   latency     once: a database of LAT_SCALE captured by Debezium. Per run the system
#               starts on fresh tables from the topics' ends; once a probe (one row of
#               each table updated) is in its tables, and WARMUP s more, pgbench runs at
#               RATE transactions/s (-R) for LAT_SECONDS s; the run ends once the last
#               change of every table is in a snapshot, then the system is stopped.
#   readcost    a database of RC_SCALE captured by Debezium; both systems at once read its
#               topics from the start (snapshot included) while pgbench runs at RC_RATE
#               transactions/s for DURATION s; once all is in, both are stopped and Spark
#               reads each table (below).
#
# Parameters (environment): SCALE 10; TRANSACTIONS 1000000 (so 1,000,110 snapshot reads
# and 3,000,000 updates); CLIENTS 4; RUNS 3; COMMIT 20 (s: Flink's checkpoint interval, our
# triggering frequency); PARALLELISM 2; LAT_SCALE 1; RATE 1000 (transactions/s);
# LAT_SECONDS 60; WARMUP 10 (s); RC_SCALE 10; RC_RATE 500; DURATION 1800; REPEATS 3 (scans);
# DBZ_POLL_MS 100 (Debezium's poll.interval.ms: with its default of 500 the connector
# holds the changes it has decoded until max.batch.size (2048) of them or 500 ms have
# gathered, a delay both systems would pay before their own);
# RUN_TIMEOUT (s per run; default 600 + changes/2000); BENCH_CACHE .cache/bench-debezium
# (the broker's, PostgreSQL's and Debezium's data, the catalog, runs/MODE-RUN-SYSTEM/ with
# each run's logs, /usr/bin/time figures, state.json, check.json and result.json);
# FLINK_JAVA_OPTS.
#
# Figures per run (scripts/kafka-bench/dbz.py):
#   changes/s    N / (the latest over the tables of the commit timestamp of the first
#                snapshot whose totals (records, data and delete files, position and
#                equality deletes) equal the final ones - the system's launch); N is
#                the sum of the topics' end offsets (no deletes, so no tombstones).
#   CPU s per million changes   user + system CPU of every process of the system
#                (/usr/bin/time -v) plus the catalog's (`icebeam serve`, started afresh
#                for each run) / N. PostgreSQL, Debezium, the broker and pgbench are not
#                counted, nor the checks after the run. In latency mode N is the changes
#                pgbench made, the system's start-up, probe and WARMUP included.
#   peak RSS     the sum of the system's processes' peaks (the catalog's apart).
#   complete     Spark (interop/spark/submit.sh; scripts/kafka-bench/dbz_spark.py) reads
#                each table after the run: its rows, sum of the balance and sum of mtime_us
#                equal PostgreSQL's (latency mode: over the rows changed in the run);
#                a run that differs is marked INCOMPLETE.
#   latency p50 / max (latency mode)   per source transaction of the run (pgbench_history
#                holds each one's keys and start): the commit timestamp of the first
#                snapshot in which all three of its changes are visible (a row of the key
#                with mtime_us at or after the start: its own, or a later one that replaced
#                it in the same commit) minus its start. The transaction's own run time
#                (a fraction of a ms here, more when it waits on a hot row) counts as
#                latency; "never visible" counts those not found. Debezium's own delay (the
#                WAL read, Connect's producer) is in it: it is the same for both systems.
#   read cost (readcost mode)   per table: a full scan (Spark, every column, Spark's
#                noop sink), median of REPEATS after a warm-up, of the table as streaming
#                left it, then of the same table after Spark's rewrite_data_files
#                (rewrite-all, dangling deletes removed); the ratio of the two.
#
# Needs Java 17, Maven 3.6.3+, javac, Go, Python 3 (venvs: .cache/kafka-bench/venv with
# pyiceberg; .cache/interop's with pyspark, from interop/env.sh), GNU time, Debian's
# PostgreSQL with pgbench (scripts/postgres.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

log() { printf '[bench-debezium %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  echo "bench-debezium: $*" >&2
  exit 1
}
# shellcheck source=scripts/lib/maven.sh
source scripts/lib/maven.sh
# shellcheck source=scripts/lib/bench.sh
source scripts/lib/bench.sh
java_require 17 "" "Kafka, Debezium and Flink 1.20 (scripts/bench-debezium.sh)"

SCALE=${SCALE:-10}
TRANSACTIONS=${TRANSACTIONS:-1000000}
CLIENTS=${CLIENTS:-4}
RUNS=${RUNS:-3}
SYSTEMS=${SYSTEMS:-ours-prism flink-sql}
MODES=${MODES:-throughput latency}
COMMIT=${COMMIT:-20}
PARALLELISM=${PARALLELISM:-2}
LAT_SCALE=${LAT_SCALE:-1}
RATE=${RATE:-1000}
LAT_SECONDS=${LAT_SECONDS:-60}
DBZ_POLL_MS=${DBZ_POLL_MS:-100}
WARMUP=${WARMUP:-10}
RC_SCALE=${RC_SCALE:-10}
RC_RATE=${RC_RATE:-500}
DURATION=${DURATION:-1800}
REPEATS=${REPEATS:-3}
OUT=${BENCH_CACHE:-.cache/bench-debezium}
LIBS=.cache/kafka-bench
BIN=.cache/bin
PY=$LIBS/venv/bin/python
HELPER=scripts/kafka-bench/bench.py
DBZ=scripts/kafka-bench/dbz.py
for s in $SYSTEMS; do
  case "$s" in flink-sql | ours-prism) ;; *) die "SYSTEMS: want ours-prism or flink-sql (got '$s')" ;; esac
done
for m in $MODES; do
  case "$m" in throughput | latency | readcost) ;; *) die "MODES: want throughput, latency or readcost (got '$m')" ;; esac
done
[ $((TRANSACTIONS % CLIENTS)) = 0 ] || die "TRANSACTIONS ($TRANSACTIONS) must be a multiple of CLIENTS ($CLIENTS)"

# The captured tables, each with its balance column (the checksum) and its
# columns as Flink SQL declares them (pgbench's types; filler is char(N)).
TABLES=pgbench_accounts,pgbench_tellers,pgbench_branches
SPEC=pgbench_accounts:abalance,pgbench_tellers:tbalance,pgbench_branches:bbalance
declare -A COLS=(
  [pgbench_accounts]="aid INT, bid INT, abalance INT, filler STRING, mtime_us BIGINT"
  [pgbench_tellers]="tid INT, bid INT, tbalance INT, filler STRING, mtime_us BIGINT"
  [pgbench_branches]="bid INT, bbalance INT, filler STRING, mtime_us BIGINT"
)
declare -A KEY=([pgbench_accounts]=aid [pgbench_tellers]=tid [pgbench_branches]=bid)

PG_PID="" DBZ_PIDS=()
trap 'for p in "${DBZ_PIDS[@]}"; do scripts/debezium.sh stop "$p" > /dev/null 2>&1 || true; done
  [ -z "$PG_PID" ] || scripts/postgres.sh stop "$PG_PID" > /dev/null 2>&1 || true; bench_cleanup' EXIT

# --- Set-up.
mkdir -p "$OUT" "$BIN"
log "building icebeam and pipelines/kafka"
CGO_ENABLED=0 go build -trimpath -o "$BIN/icebeam" ./cmd/icebeam
CGO_ENABLED=0 go build -trimpath -o "$BIN/kafka" ./pipelines/kafka
[[ " $SYSTEMS " != *" flink-sql "* ]] || build_flink_bench
scripts/debezium.sh assemble
check_java
ensure_venv
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) not found: apt-get install time"
PGBENCH=$(scripts/postgres.sh bin)/pgbench
[ -x "$PGBENCH" ] || die "pgbench not found beside PostgreSQL's programs ($PGBENCH)"

rm -rf "$OUT/runs" "$OUT/broker" "$OUT/lakehouse" "$OUT/postgres" "$OUT/debezium"
mkdir -p "$OUT/runs"
read -r BROKER_PID BOOTSTRAP < <(scripts/kafka.sh start --port 0 --dir "$OUT/broker" --owner $$)
[ -n "${BOOTSTRAP:-}" ] || die "the broker did not start"
read -r PG_PID PG < <(scripts/postgres.sh start --port 0 --dir "$OUT/postgres" --owner $$)
[ -n "${PG:-}" ] || die "PostgreSQL did not start"
log "broker pid $BROKER_PID at $BOOTSTRAP, PostgreSQL pid $PG_PID at $PG"

psql() { scripts/postgres.sh psql "$PG" -q -At "$@"; }
pgbench() { "$PGBENCH" -h 127.0.0.1 -p "${PG##*:}" -U postgres "$@"; }

# capture DB SCALE: a pgbench database of SCALE, with mtime_us and replica
# identity full on the three tables, captured by Debezium from now on as
# topics DB.public.TABLE (its snapshot first); sets DBZ_PID.
capture() {
  local db=$1 scale=$2 t
  psql -c "CREATE DATABASE $db"
  log "pgbench -i -s $scale $db"
  pgbench -i -q -s "$scale" "$db" > "$OUT/pgbench-init-$db.log" 2>&1 || die "pgbench -i failed: $(tail -n 5 "$OUT/pgbench-init-$db.log")"
  for t in ${TABLES//,/ }; do
    psql -d "$db" -c "ALTER TABLE $t ADD COLUMN mtime_us bigint; ALTER TABLE $t REPLICA IDENTITY FULL"
  done
  # A snapshot of SCALE 10 takes minutes; start returns once it is in Kafka.
  read -r DBZ_PID _ < <(DEBEZIUM_START_TIMEOUT=${DEBEZIUM_START_TIMEOUT:-1200} scripts/debezium.sh start --bootstrap "$BOOTSTRAP" --pg "$PG" --db "$db" --prefix "$db" \
    --dir "$OUT/debezium/$db" --tables "public.${TABLES//,/,public.}" --set "poll.interval.ms=$DBZ_POLL_MS" --owner $$)
  [ -n "${DBZ_PID:-}" ] || die "Debezium did not start"
  DBZ_PIDS+=("$DBZ_PID")
  # debezium.sh returns once the snapshot is in Kafka: every row, once.
  local n
  n=$(end_offsets "$db")
  [ "$n" = $((scale * 100011)) ] || die "Debezium's snapshot of $db is $n changes, want $((scale * 100011))"
}

# wait_captured DB N: until DB's topics hold N changes (or 20 minutes).
wait_captured() {
  log "waiting for Debezium to capture $2 changes of $1"
  for _ in $(seq 1200); do
    [ "$(end_offsets "$1")" -lt "$2" ] || break
    sleep 1
  done
  [ "$(end_offsets "$1")" = "$2" ] || die "Debezium captured $(end_offsets "$1") changes of $1, want $2"
}

topics() { local db=$1; echo "$db.public.${TABLES//,/,$db.public.}"; }

# end_offsets DB: the sum of the end offsets of DB's topics.
end_offsets() {
  scripts/kafka.sh offsets "$BOOTSTRAP" --topic-partitions "$1\\.public\\..*" 2> /dev/null |
    awk -F: '{n += $NF} END {print n + 0}'
}

# pg_figures DB OUT [WHERE]: per table [rows, sum(balance), sum(mtime_us)], as
# dbz_spark.py's check gives them, into OUT.
pg_figures() {
  local db=$1 out=$2 where=${3:-} t bal q=""
  for s in ${SPEC//,/ }; do
    t=${s%%:*} bal=${s#*:}
    q+="${q:+ UNION ALL }SELECT '$t', count(*), coalesce(sum($bal), 0), coalesce(sum(mtime_us), 0) FROM $t${where:+ WHERE $where}"
  done
  psql -d "$db" -F ' ' -c "$q" | python3 -c 'import json, sys
print(json.dumps({l.split()[0]: [int(x) for x in l.split()[1:]] for l in sys.stdin if l.strip()}))' > "$out"
}

spark() { interop/spark/submit.sh "$SERVE_URI" scripts/kafka-bench/dbz_spark.py "$@"; }

# --- The systems. Each start_SYSTEM DIR DB NS MODE launches its processes into
# tables NS.TABLE and sets STOP_SIG, the signal that stops them. In throughput
# mode both end by themselves once all is committed.

start_ours-prism() {
  local dir=$1 db=$2 ns=$3 mode=$4 args
  args=(--catalog_uri="$SERVE_URI" --bootstrap_servers="$BOOTSTRAP" --topics="$(topics "$db")" --format=debezium
    --iceberg_table="$ns.{table}" --rejected_table="$ns.rejected" --writer_id="$ns"
    --triggering_frequency_seconds="$COMMIT")
  STOP_SIG=INT
  case "$mode" in
    throughput) args+=(--bounded) ;;
    latency) args+=(--start=latest) ;;
  esac
  launch "$dir" kafka "$BIN/kafka" "${args[@]}"
}

start_flink-sql() {
  local dir=$1 db=$2 ns=$3 mode=$4 opts=() args t
  # shellcheck disable=SC2206 # a list of words on purpose
  [ -z "${FLINK_JAVA_OPTS:-}" ] || opts=(${FLINK_JAVA_OPTS})
  args=(--uri="$SERVE_URI" --namespace="$ns" --bootstrap="$BOOTSTRAP" --tables="$TABLES" --group="$ns"
    --parallelism="$PARALLELISM" --checkpoint="${COMMIT}s" --checkpoint_dir="$dir/checkpoints")
  for t in ${TABLES//,/ }; do
    args+=("--topic.$t=$db.public.$t" "--columns.$t=${COLS[$t]}" "--key.$t=${KEY[$t]}")
  done
  STOP_SIG=TERM
  case "$mode" in
    throughput) args+=(--start=earliest --bounded=true) ;;
    latency) args+=(--start=latest --bounded=false) ;;
    readcost) args+=(--start=earliest --bounded=false) ;;
  esac
  launch "$dir" flink "$(java_bin)" "${FLINK_JVM[@]}" "${opts[@]}" \
    -cp "$LIBS/flink/main/classes:$LIBS/flink/lib/*" icebeam.bench.FlinkDebeziumBench "${args[@]}"
}

# wait_exit PID SECS: 0 once PID exited, 1 after SECS.
wait_exit() {
  local end=$(($(date +%s) + $2))
  while kill -0 "$1" 2> /dev/null; do
    [ "$(date +%s)" -lt "$end" ] || return 1
    sleep 0.5
  done
}

# pgbench_at DB SCALE TPS SECONDS LOG: TPC-B-like transactions at a fixed
# rate; prints the PostgreSQL clock (epoch µs) just before they start.
pgbench_at() {
  local db=$1 scale=$2 tps=$3 secs=$4 out=$5 t0
  t0=$(psql -d "$db" -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
  pgbench -n -s "$scale" -c 2 -j 2 -R "$tps" -T "$secs" -f scripts/kafka-bench/tpcb.sql "$db" > "$out" 2>&1 ||
    die "pgbench failed: $(tail -n 5 "$out")"
  echo "$t0"
}

# last_mtimes DB T0: per table the last mtime_us written since T0, as JSON.
last_mtimes() {
  local q="" t
  for t in ${TABLES//,/ }; do
    q+="${q:+ UNION ALL }SELECT '$t', coalesce(max(mtime_us), 0) FROM $t WHERE mtime_us >= $2"
  done
  psql -d "$1" -F ' ' -c "$q" | python3 -c 'import json, sys
print(json.dumps({l.split()[0]: int(l.split()[1]) for l in sys.stdin if l.strip()}))'
}

# ready DB NS SECS: a system started at the topics' ends (latest) skips what
# is written before it has found them, later on a loaded machine: so one row
# of each table is updated (its mtime_us the probe's time) every 2 COMMIT + 5
# s until each is in a snapshot, then WARMUP s more.
ready() {
  local db=$1 ns=$2 end=$(($(date +%s) + $3)) t rc
  while [ "$(date +%s)" -lt "$end" ]; do
    t=$(psql -d "$db" -c "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
    psql -d "$db" -c "UPDATE pgbench_accounts SET mtime_us = $t WHERE aid = 1;
      UPDATE pgbench_tellers SET mtime_us = $t WHERE tid = 1; UPDATE pgbench_branches SET mtime_us = $t WHERE bid = 1"
    rc=0
    "$PY" "$DBZ" seen "$SERVE_URI" "$ns" "$TABLES" "$(last_mtimes "$db" "$t")" $((2 * COMMIT + 5)) "${SYS_PIDS[@]}" \
      > /dev/null || rc=$?
    if [ "$rc" = 0 ]; then
      sleep "$WARMUP"
      return 0
    fi
    [ "$rc" = 3 ] || return 2
  done
  return 3
}

# stop_system: stops the run's processes (a bounded system that has ended
# by itself is only waited for).
stop_system() {
  local p
  for p in "${SYS_PIDS[@]}"; do stop_wrapped "$p" "$STOP_SIG" 60; done
  SYS_PIDS=()
}

# run_one SYSTEM MODE RUN POSITION
run_one() {
  local sys=$1 mode=$2 run=$3 pos=$4 dir ns n timeout rc=0 start_ms t0=0 db equal=0 where=""
  dir="$OUT/runs/$mode-$run-$sys"
  mkdir -p "$dir"
  ns="${sys//-/_}_${mode}_$run"
  SYS_PIDS=() SYS_TIMES=()
  start_catalog "$dir"
  if [ "$mode" = throughput ]; then
    db=tp n=$TP_CHANGES
    timeout=${RUN_TIMEOUT:-$((600 + n / 2000))}
  else
    db=lat n=$((3 * RATE * LAT_SECONDS))
    timeout=${RUN_TIMEOUT:-$((COMMIT * 3 + 300))}
  fi
  log "run $run, $sys, $mode: $n changes of $db into $ns.* (load $(cut -d' ' -f1-3 /proc/loadavg))"
  start_ms=$(date +%s%3N)
  "start_$sys" "$dir" "$db" "$ns" "$mode"
  if [ "$mode" = throughput ]; then
    wait_exit "${SYS_PIDS[0]}" "$timeout" || { rc=3 && log "$sys: still running after ${timeout}s"; }
  else
    ready "$db" "$ns" "$timeout" || rc=$?
    t0=$(pgbench_at "$db" "$LAT_SCALE" "$RATE" "$LAT_SECONDS" "$dir/pgbench.log")
    n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$dir/pgbench.log")
    n=$((3 * ${n:-0}))
    where="mtime_us >= $t0"
    "$PY" "$DBZ" seen "$SERVE_URI" "$ns" "$TABLES" "$(last_mtimes "$db" "$t0")" "$timeout" "${SYS_PIDS[@]}" \
      > "$dir/seen.json" || rc=$?
  fi
  [ "$rc" = 0 ] || { log "$sys: not all changes landed ($rc): $(cat "$dir/seen.json" 2> /dev/null)"; tail -n 5 "$dir"/*.log >&2; }
  stop_system
  "$PY" "$DBZ" state "$SERVE_URI" "$ns" "$TABLES" > "$dir/state.json" || echo '{}' > "$dir/state.json"
  if [ "$mode" = latency ]; then
    psql -d "$db" -A -F , -c "SELECT aid, tid, bid, (extract(epoch FROM mtime) * 1000000)::bigint FROM pgbench_history
      WHERE mtime >= to_timestamp($t0 / 1e6) AT TIME ZONE 'UTC'" > "$dir/history.csv"
    "$PY" "$DBZ" latency "$SERVE_URI" "$ns" "$TABLES" "$t0" "$dir/history.csv" > "$dir/latency.json" ||
      echo '{}' > "$dir/latency.json"
  fi
  pg_figures "$db" "$dir/pg.json" "$where"
  if spark check "$ROOT/$dir/check.json" "$ns" "$SPEC" "$where" > "$dir/spark.log" 2>&1 &&
    "$PY" "$DBZ" compare "$dir/pg.json" "$dir/check.json" > "$dir/compare.txt"; then
    equal=1
  else
    log "$sys: the tables differ from PostgreSQL: $(cat "$dir/compare.txt" 2> /dev/null || tail -n 3 "$dir/spark.log")"
  fi
  stop_wrapped "$SERVE_PID" TERM 10
  SERVE_PID=
  printf '{"system": "%s", "mode": "%s", "run": %s, "position": %s, "changes": %s, "start_ms": %s, "t0_us": %s, "namespace": "%s", "rc": %s, "equal": %s, "load": "%s", "system_time_files": [%s]}\n' \
    "$sys" "$mode" "$run" "$pos" "$n" "$start_ms" "$t0" "$ns" "$rc" "$equal" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(printf '"%s",' "${SYS_TIMES[@]}" | sed 's/,$//')" > "$dir/run.json"
  "$PY" "$DBZ" result "$dir" >&2
}

# readcost: both systems at once (what is measured is the tables they leave,
# not their CPU), from the topics' start, while pgbench runs for DURATION s.
readcost() {
  local dir="$OUT/runs/readcost" sys nss="" t0 rc=0 sigs=() i
  mkdir -p "$dir"
  capture rc "$RC_SCALE"
  SYS_PIDS=() SYS_TIMES=()
  start_catalog "$dir"
  for sys in $SYSTEMS; do
    mkdir -p "$dir/$sys"
    "start_$sys" "$dir/$sys" rc "${sys//-/_}_readcost" readcost
    sigs+=("$STOP_SIG")
    nss+="${nss:+,}${sys//-/_}_readcost"
  done
  log "readcost: $SYSTEMS streaming; pgbench at $RC_RATE transactions/s for ${DURATION}s"
  t0=$(pgbench_at rc "$RC_SCALE" "$RC_RATE" "$DURATION" "$dir/pgbench.log")
  for ns in ${nss//,/ }; do
    "$PY" "$DBZ" seen "$SERVE_URI" "$ns" "$TABLES" "$(last_mtimes rc "$t0")" $((COMMIT * 3 + 300)) "${SYS_PIDS[@]}" \
      > "$dir/seen-$ns.json" || { rc=1 && log "readcost: $ns did not land every change: $(cat "$dir/seen-$ns.json")"; }
  done
  for i in "${!SYS_PIDS[@]}"; do stop_wrapped "${SYS_PIDS[$i]}" "${sigs[$i]}" 60; done
  SYS_PIDS=()
  pg_figures rc "$dir/pg.json"
  log "readcost: Spark scans each table $REPEATS times, compacts it, scans again"
  spark readcost "$ROOT/$dir/spark.json" "$REPEATS" "$nss" "$SPEC" > "$dir/spark.log" 2>&1 ||
    die "readcost: Spark failed: $(tail -n 5 "$dir/spark.log")"
  "$PY" "$DBZ" readcost "$dir" "$DURATION" "$REPEATS" "$rc"
  stop_wrapped "$SERVE_PID" TERM 10
  SERVE_PID=
}

read -r -a SL <<< "$SYSTEMS"
T0=$(date +%s)
what=()
for m in $MODES; do
  case "$m" in
    throughput) what+=("pgbench scale $SCALE and $TRANSACTIONS transactions by $CLIENTS clients (throughput)") ;;
    latency) what+=("scale $LAT_SCALE at $RATE transactions/s for ${LAT_SECONDS}s (latency)") ;;
    readcost) what+=("scale $RC_SCALE at $RC_RATE transactions/s for ${DURATION}s (read cost)") ;;
  esac
done
joined=$(IFS=";" && echo "${what[*]}")
TITLE="PostgreSQL to Iceberg through Debezium, $(date +%Y-%m-%d), $(nproc) cores: ${joined//;/; };\
 commit every ${COMMIT}s, parallelism $PARALLELISM; RUNS=$RUNS"
log "$TITLE"
for mode in $MODES; do
  case "$mode" in
    throughput)
      capture tp "$SCALE"
      log "pgbench: $TRANSACTIONS transactions by $CLIENTS clients"
      pgbench -n -s "$SCALE" -c "$CLIENTS" -j "$CLIENTS" -t $((TRANSACTIONS / CLIENTS)) -f scripts/kafka-bench/tpcb.sql tp \
        > "$OUT/runs/pgbench-tp.log" 2>&1 || die "pgbench failed: $(tail -n 5 "$OUT/runs/pgbench-tp.log")"
      TP_CHANGES=$((SCALE * 100011 + 3 * TRANSACTIONS))
      wait_captured tp "$TP_CHANGES"
      scripts/debezium.sh stop "$DBZ_PID" > /dev/null
      ;;
    latency) capture lat "$LAT_SCALE" ;;
    readcost)
      readcost
      continue
      ;;
  esac
  for ((r = 0; r < RUNS; r++)); do
    for ((k = 0; k < ${#SL[@]}; k++)); do
      run_one "${SL[$(((r + k) % ${#SL[@]}))]}" "$mode" $((r + 1)) "$k"
    done
  done
  # Idle, but a JVM that would take CPU from the next mode's runs.
  [ "$mode" != latency ] || scripts/debezium.sh stop "$DBZ_PID" > /dev/null
done
"$PY" "$DBZ" report "$OUT/runs" "$TITLE" | tee "$OUT/report.md"
log "done in $(($(date +%s) - T0))s; each run's files: $OUT/runs/"
