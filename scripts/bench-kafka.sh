#!/usr/bin/env bash
# Kafka to Iceberg, side by side: the same topic of ~150-byte JSON records on
# one broker, read by each system into a table of its own in the same catalog
# (`icebeam serve`), one system at a time, RUNS runs each (the order rotating),
# medians reported.
#
#   ./scripts/bench-kafka.sh                              # 20 M records, both modes, 3 runs each (~25 min)
#   RECORDS=1000000 RUNS=1 MODES=throughput ./scripts/bench-kafka.sh   # a short check
#   SYSTEMS=connect MODES=latency RATE=20000 LAT_SECONDS=60 ./scripts/bench-kafka.sh
#
# Systems (SYSTEMS, any subset; default "ours-prism ours-flink connect flink-sql"):
#   connect     Apache Iceberg's Kafka Connect sink, org.apache.iceberg:iceberg-kafka-connect
#               1.10.1 (+ -events 1.10.1, iceberg-parquet, hadoop-client 3.4.1 for file://;
#               scripts/kafka-bench/connect/pom.xml) as a plugin (plugin.path) of Kafka Connect
#               4.3.0 standalone (scripts/kafka.sh's jars), JsonConverter without schemas,
#               tasks.max=PARALLELISM, iceberg.control.commit.interval-ms=COMMIT s, its own
#               control topic and consumer group per run; offset.flush.interval.ms=1000 (see
#               start_connect: with the default 60 s an idle task answers the coordinator
#               once a minute); -Xmx2G -Xms256M and G1 as Kafka's connect-standalone.sh sets them. It has no bounded mode: it runs until every
#               record is in the table, then is stopped (SIGTERM).
#   flink-sql   Flink 1.20.1 SQL in a local mini cluster: a `kafka` table
#               (flink-connector-kafka 3.4.0-1.20, format json, from the earliest offsets)
#               INSERT INTO the Iceberg table through Iceberg's own Flink sink
#               (iceberg-flink-runtime-1.20 1.10.1), parallelism PARALLELISM, a checkpoint
#               (hence a commit) every COMMIT s (scripts/kafka-bench/flink/). Throughput
#               mode: bounded ('scan.bounded.mode'='latest-offset'; the job ends after its
#               end-of-input commit); latency mode: unbounded, stopped once all is in.
#   ours-prism, ours-flink   pipelines/kafka on prism, and on Beam's portable Flink
#               runner (scripts/jobserver.sh, LOOPBACK, parallelism PARALLELISM, checkpoints
#               every COMMIT s from the cluster's flink-conf.yaml; the job server counts);
#               --bounded in throughput mode, streaming (SIGINT to end) in latency mode.
#
# Modes (MODES, default "throughput latency"):
#   throughput  the topic `bench` (PARTITIONS partitions) is filled once with RECORDS
#               records before the first run; each run reads it from the start.
#   latency     per run a fresh topic; the system is started, WARMUP s later kafkagen
#               produces RATE records/s for LAT_SECONDS s, each carrying its produce time
#               (ts, epoch ms); the run ends when all are in the table.
#
# Parameters (environment): RECORDS 20000000 (at 5 M, start-up and the commit
# schedule weigh more than throughput; the topic takes 3 GB); PARTITIONS 6; RUNS 3; COMMIT 20 (s:
# Connect's commit interval, Flink's checkpoint interval, our triggering frequency);
# PARALLELISM 2; RATE 20000; LAT_SECONDS 60; WARMUP 30 (s); RUN_TIMEOUT (s per run;
# default 300 + RECORDS/5000 in throughput mode, WARMUP + LAT_SECONDS + 300 in latency
# mode); BENCH_CACHE .cache/bench-kafka (the broker's data, the catalog, runs/MODE-RUN-
# SYSTEM/ with each run's logs, configs, /usr/bin/time figures and result.json);
# FLINK_JAVA_OPTS (none: the JVM's own heap sizing); CONNECT_HEAP 2G.
#
# Figures per run (scripts/kafka-bench/bench.py):
#   records/s    N / (timestamp-ms of the first snapshot holding all N records - the
#                moment the system's first process is launched): start-up included.
#   CPU s per million records   user + system CPU of every process of the system
#                (/usr/bin/time -v on each) plus the catalog's (`icebeam serve`, started
#                afresh on the same directory for each run, so that its CPU is the run's)
#                / N. The broker and the producer are not counted.
#   peak RSS     the sum of the system's processes' peaks (the catalog's apart).
#   latency p50 / max (latency mode)   per record, the timestamp-ms of the snapshot that
#                added it (read back with pyiceberg) minus its produce time.
# The table's record count must equal N ("complete"); a run that is not is marked.
#
# The producer is internal/cmd/kafkagen (franz-go, acks=all, no compression, linger
# 5 ms): not the system under test. Needs Java 17, Maven 3.6.3+, javac, Go, Python 3
# (a venv with pyiceberg[pyarrow] from PyPI is made in BENCH_CACHE/../kafka-bench/venv),
# GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

log() { printf '[bench-kafka %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  echo "bench-kafka: $*" >&2
  exit 1
}
# shellcheck source=scripts/lib/maven.sh
source scripts/lib/maven.sh
# shellcheck source=scripts/lib/bench.sh
source scripts/lib/bench.sh
java_require 17 "" "Kafka Connect 4.3 and Flink 1.20 (scripts/bench-kafka.sh)"

RECORDS=${RECORDS:-20000000}
PARTITIONS=${PARTITIONS:-6}
RUNS=${RUNS:-3}
SYSTEMS=${SYSTEMS:-ours-prism ours-flink connect flink-sql}
MODES=${MODES:-throughput latency}
COMMIT=${COMMIT:-20}
PARALLELISM=${PARALLELISM:-2}
RATE=${RATE:-20000}
LAT_SECONDS=${LAT_SECONDS:-60}
WARMUP=${WARMUP:-30}
CONNECT_HEAP=${CONNECT_HEAP:-2G}
OUT=${BENCH_CACHE:-.cache/bench-kafka}
LIBS=.cache/kafka-bench
BIN=.cache/bin
PY=$LIBS/venv/bin/python
HELPER=scripts/kafka-bench/bench.py
for s in $SYSTEMS; do
  case "$s" in connect | flink-sql | ours-prism | ours-flink) ;; *) die "SYSTEMS: want connect, flink-sql, ours-prism or ours-flink (got '$s')" ;; esac
done
for m in $MODES; do
  case "$m" in throughput | latency) ;; *) die "MODES: want throughput or latency (got '$m')" ;; esac
done

trap bench_cleanup EXIT

# --- Set-up.
mkdir -p "$OUT" "$BIN"
log "building icebeam and kafkagen"
CGO_ENABLED=0 go build -trimpath -o "$BIN/icebeam" ./cmd/icebeam
CGO_ENABLED=0 go build -trimpath -o "$BIN/kafkagen" ./internal/cmd/kafkagen
if [[ " $SYSTEMS " == *" ours-"* ]]; then
  [ -d pipelines/kafka ] || die "SYSTEMS has ours-*, but pipelines/kafka does not exist yet"
  CGO_ENABLED=0 go build -trimpath -o "$BIN/kafka" ./pipelines/kafka
fi
if [[ " $SYSTEMS " == *" connect "* ]]; then
  assemble_pom "$ROOT/scripts/kafka-bench/connect/pom.xml" "$ROOT/$LIBS/connect" "" "Iceberg's Kafka Connect sink 1.10.1"
fi
if [[ " $SYSTEMS " == *" flink-sql "* ]]; then
  build_flink_bench
fi
check_java
ensure_venv
[ -x /usr/bin/time ] || die "GNU time (/usr/bin/time) not found: apt-get install time"

rm -rf "$OUT/runs" "$OUT/broker" "$OUT/lakehouse"
mkdir -p "$OUT/runs"
read -r BROKER_PID BOOTSTRAP < <(scripts/kafka.sh start --port 0 --dir "$OUT/broker" --owner $$)
[ -n "${BOOTSTRAP:-}" ] || die "the broker did not start"
log "broker pid $BROKER_PID at $BOOTSTRAP"

# --- The systems. Each start_SYSTEM DIR TOPIC TABLE MODE TAG launches its
# processes (launch, watch); STOP_SIG is the signal that stops them, BOUNDED=1
# if in this mode they end by themselves once all is committed.

start_connect() {
  local dir=$1 topic=$2 table=$3 tag=$5
  "$BIN/kafkagen" -bootstrap "$BOOTSTRAP" -topic "control-$tag" -partitions 1 -records 0 > /dev/null
  cat > "$dir/worker.properties" << EOF
bootstrap.servers=$BOOTSTRAP
key.converter=org.apache.kafka.connect.json.JsonConverter
value.converter=org.apache.kafka.connect.json.JsonConverter
key.converter.schemas.enable=false
value.converter.schemas.enable=false
offset.storage.file.filename=$ROOT/$dir/connect.offsets
# Not Connect's default of 60 s: the Iceberg sink commits offsets itself (its
# preCommit returns none), but its tasks see the coordinator's START_COMMIT only
# inside put() or flush(), and a caught-up task's put() comes once its poll
# times out, at the next offset flush. With 60 s the last commit of a run waits
# up to a minute, and every commit times out (30 s) while the tasks are idle.
offset.flush.interval.ms=1000
plugin.path=$ROOT/$LIBS/connect
plugin.discovery=service_load
listeners=http://127.0.0.1:$(free_port)
EOF
  cat > "$dir/sink.properties" << EOF
name=iceberg-$tag
connector.class=org.apache.iceberg.connect.IcebergSinkConnector
tasks.max=$PARALLELISM
topics=$topic
iceberg.tables=$table
iceberg.tables.auto-create-enabled=false
iceberg.catalog.type=rest
iceberg.catalog.uri=$SERVE_URI
iceberg.control.topic=control-$tag
iceberg.control.commit.interval-ms=$((COMMIT * 1000))
EOF
  cat > "$dir/log4j2.properties" << 'EOF'
rootLogger.level = warn
rootLogger.appenderRef.stdout.ref = stdout
appender.stdout.type = Console
appender.stdout.name = stdout
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = %d{HH:mm:ss.SSS} %p [%c] %m%n%ex
logger.coordinator.name = org.apache.iceberg.connect
logger.coordinator.level = info
logger.connect.name = org.apache.kafka.connect.runtime.WorkerSinkTask
logger.connect.level = info
logger.hadoop.name = org.apache.hadoop.util.NativeCodeLoader
logger.hadoop.level = error
EOF
  if [ -n "${CONNECT_DEBUG:-}" ]; then
    # The commit protocol's events and the Kafka clients' group and offset moves.
    printf '%s\n' "logger.channel.name = org.apache.iceberg.connect.channel" "logger.channel.level = debug" \
      "logger.clients.name = org.apache.kafka.clients" "logger.clients.level = info" "logger.connect.level = trace" >> "$dir/log4j2.properties"
  fi
  STOP_SIG=TERM BOUNDED=0
  launch "$dir" connect "$(java_bin)" "-Xmx$CONNECT_HEAP" -Xms256M -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -Djava.awt.headless=true \
    "-Dlog4j2.configurationFile=$ROOT/$dir/log4j2.properties" -cp "$ROOT/.cache/kafka/lib/*" \
    org.apache.kafka.connect.cli.ConnectStandalone "$ROOT/$dir/worker.properties" "$ROOT/$dir/sink.properties"
}

start_flink-sql() {
  local dir=$1 topic=$2 table=$3 mode=$4 tag=$5 opts=()
  # shellcheck disable=SC2206 # a list of words on purpose
  [ -z "${FLINK_JAVA_OPTS:-}" ] || opts=(${FLINK_JAVA_OPTS})
  STOP_SIG=TERM BOUNDED=0
  [ "$mode" = latency ] || BOUNDED=1
  launch "$dir" flink "$(java_bin)" "${FLINK_JVM[@]}" "${opts[@]}" \
    -cp "$LIBS/flink/main/classes:$LIBS/flink/lib/*" icebeam.bench.FlinkKafkaBench \
    --uri="$SERVE_URI" --table="$table" --bootstrap="$BOOTSTRAP" --topic="$topic" --group="$tag" \
    --parallelism="$PARALLELISM" --checkpoint="${COMMIT}s" --bounded="$([ "$BOUNDED" = 1 ] && echo true || echo false)"
}

# ours_args TOPIC TABLE MODE TAG: pipelines/kafka's flags for a run. In
# throughput mode it lands the topic up to the end offsets found at start and
# exits (--bounded); in latency mode it streams, and SIGINT commits the open
# window and exits.
ours_args() {
  OURS_ARGS=(--catalog_uri="$SERVE_URI" --bootstrap_servers="$BOOTSTRAP" --topics="$1" --format=json
    --iceberg_table="$2" --rejected_table="bench.rejected_$4" --writer_id="$4"
    --triggering_frequency_seconds="$COMMIT")
  STOP_SIG=INT BOUNDED=0
  [ "$3" = latency ] || { OURS_ARGS+=(--bounded); BOUNDED=1; }
}

# run_ours_prism DIR TOPIC TABLE MODE TAG: pipelines/kafka on prism.
run_ours_prism() {
  ours_args "$2" "$3" "$4" "$5"
  launch "$1" kafka "$BIN/kafka" "${OURS_ARGS[@]}"
}

# run_ours_flink DIR TOPIC TABLE MODE TAG: pipelines/kafka on Beam's portable
# Flink runner (scripts/jobserver.sh) at PARALLELISM, checkpoints every COMMIT
# seconds from the cluster's configuration; the job server's CPU and memory
# count, and it is stopped after the run.
run_ours_flink() {
  local conf="$ROOT/$1/flink-conf" js
  mkdir -p "$conf"
  printf '%s\n' "parallelism.default: $PARALLELISM" "taskmanager.numberOfTaskSlots: $PARALLELISM" \
    "execution.checkpointing.interval: ${COMMIT}s" "state.checkpoints.dir: file://$ROOT/$1/checkpoints" > "$conf/flink-conf.yaml"
  js=$("$ROOT/scripts/jobserver.sh" start flink --job-port 0 --conf-dir "$conf" --log "$ROOT/$1/jobserver.log")
  watch "$1" jobserver "${js%% *}"
  AFTER_RUN+=("$ROOT/scripts/jobserver.sh stop ${js%% *}")
  ours_args "$2" "$3" "$4" "$5"
  launch "$1" kafka "$BIN/kafka" "${OURS_ARGS[@]}" --runner=flink --endpoint="${js#* }" --environment_type=LOOPBACK
}
start_ours-prism() { run_ours_prism "$@"; }
start_ours-flink() { run_ours_flink "$@"; }

# run_one SYSTEM MODE RUN POSITION
run_one() {
  local sys=$1 mode=$2 run=$3 pos=$4 dir tag table topic n timeout rc=0 start_ms
  dir="$OUT/runs/$mode-$run-$sys"
  mkdir -p "$dir"
  tag="${sys//-/_}_${mode}_$run"
  table="bench.$tag"
  SYS_PIDS=() SYS_TIMES=() SAMPLER_PIDS=() AFTER_RUN=()
  start_catalog "$dir"
  "$PY" "$HELPER" create "$SERVE_URI" "$table"
  if [ "$mode" = latency ]; then
    topic="lat-$tag"
    n=$((RATE * LAT_SECONDS))
    "$BIN/kafkagen" -bootstrap "$BOOTSTRAP" -topic "$topic" -partitions "$PARTITIONS" -records 0 > /dev/null
    timeout=${RUN_TIMEOUT:-$((WARMUP + LAT_SECONDS + 300))}
  else
    topic=bench
    n=$RECORDS
    timeout=${RUN_TIMEOUT:-$((300 + RECORDS / 5000))}
  fi
  log "run $run, $sys, $mode: $n records from $topic into $table (load $(cut -d' ' -f1-3 /proc/loadavg))"
  start_ms=$(date +%s%3N)
  "start_$sys" "$dir" "$topic" "$table" "$mode" "$tag"
  if [ "$mode" = latency ]; then
    sleep "$WARMUP"
    "$BIN/kafkagen" -bootstrap "$BOOTSTRAP" -topic "$topic" -records "$n" -rate "$RATE" > "$dir/produce.json"
  fi
  "$PY" "$HELPER" wait "$SERVE_URI" "$table" "$n" "$timeout" "${SYS_PIDS[0]}" > "$dir/wait.json" || rc=$?
  case "$rc" in
    0) log "all $n records are in $table" ;;
    2) log "$sys exited before all records were in $table: $(cat "$dir/wait.json"); the end of its log:" && tail -n 5 "$dir"/*.log >&2 ;;
    *) log "$sys: not all records in $table after ${timeout}s: $(cat "$dir/wait.json")" ;;
  esac
  local p
  for p in "${SYS_PIDS[@]}"; do
    if [ "$BOUNDED" = 1 ] && [ "$rc" = 0 ]; then
      # It ends by itself: its shutdown counts.
      for _ in $(seq 600); do
        kill -0 "$p" 2> /dev/null || break
        sleep 0.1
      done
    fi
    stop_wrapped "$p" "$STOP_SIG" 60
  done
  for p in "${SAMPLER_PIDS[@]}"; do
    kill "$p" 2> /dev/null || true
    wait "$p" 2> /dev/null || true
  done
  for p in "${AFTER_RUN[@]}"; do
    $p > /dev/null 2>&1 || true
  done
  SYS_PIDS=() SAMPLER_PIDS=() AFTER_RUN=()
  "$PY" "$HELPER" table "$SERVE_URI" "$table" > "$dir/table.json" || echo '{}' > "$dir/table.json"
  if [ "$mode" = latency ]; then
    "$PY" "$HELPER" latency "$SERVE_URI" "$table" > "$dir/latency.json" || echo '{}' > "$dir/latency.json"
  fi
  stop_wrapped "$SERVE_PID" TERM 10
  SERVE_PID=
  printf '{"system": "%s", "mode": "%s", "run": %s, "position": %s, "records": %s, "start_ms": %s, "topic": "%s", "table": "%s", "wait_rc": %s, "load": "%s", "system_time_files": [%s]}\n' \
    "$sys" "$mode" "$run" "$pos" "$n" "$start_ms" "$topic" "$table" "$rc" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    "$(printf '"%s",' "${SYS_TIMES[@]}" | sed 's/,$//')" > "$dir/run.json"
  "$PY" "$HELPER" result "$dir" >&2
}

read -r -a SL <<< "$SYSTEMS"
T0=$(date +%s)
TITLE="Kafka to Iceberg, $(date +%Y-%m-%d), $(nproc) cores: $RECORDS records (throughput), $PARTITIONS partitions,\
 latency at $RATE records/s for ${LAT_SECONDS}s; commit every ${COMMIT}s, parallelism $PARALLELISM; RUNS=$RUNS"
log "$TITLE"
for mode in $MODES; do
  if [ "$mode" = throughput ]; then
    log "producing $RECORDS records into topic bench ($PARTITIONS partitions)"
    "$BIN/kafkagen" -bootstrap "$BOOTSTRAP" -topic bench -partitions "$PARTITIONS" -records "$RECORDS" > "$OUT/runs/produce.json"
    log "produced: $(cat "$OUT/runs/produce.json")"
  fi
  for ((r = 0; r < RUNS; r++)); do
    for ((k = 0; k < ${#SL[@]}; k++)); do
      run_one "${SL[$(((r + k) % ${#SL[@]}))]}" "$mode" $((r + 1)) "$k"
    done
  done
done
"$PY" "$HELPER" report "$OUT/runs" "$TITLE" | tee "$OUT/report.md"
log "done in $(($(date +%s) - T0))s; each run's files: $OUT/runs/"
