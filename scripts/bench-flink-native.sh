#!/usr/bin/env bash
# Streaming yardstick: Flink 1.20.1 SQL writing through Iceberg's own Flink
# sink (iceberg-flink-runtime-1.20 1.10.1, from Maven Central), side by side
# with our clicks pipeline on prism and on Beam's portable Flink runner, each
# into a clicks table (user_id string, click_count bigint; SEQ=1 adds seq
# bigint) of its own fresh `icebeam serve` catalog. The writers alternate,
# the order rotating each run (run 1: native prism flink, run 2: prism flink
# native, ...), RUNS runs each; it prints every run's figures, then the
# medians per writer as a markdown table for docs/benchmarks.md.
#
#   ./scripts/bench-flink-native.sh                      # 100 s flat out, 3 runs of each writer
#   DURATION=20s RUNS=1 ./scripts/bench-flink-native.sh  # a short check
#   WRITERS=native DURATION=15s RUNS=1 ./scripts/bench-flink-native.sh
#   RATE=200000 DURATION=60s ./scripts/bench-flink-native.sh   # all three at 200,000 rows/s
#
# Parameters (environment):
#   DURATION     100s. The native job's source is unbounded; the job is
#                stopped with a savepoint (whose completion commits what its
#                sink holds): flat out (RATE=0), DURATION after its JVM
#                started; with RATE, DURATION after Flink reports it RUNNING,
#                so about RATE x DURATION rows. Ours generate DURATION/INTERVAL
#                rows and end when all are committed: flat out on prism
#                INTERVAL=100ns (10 M rows/s offered, more than it does), on
#                portable Flink FLINK_INTERVAL, with RATE INTERVAL=1/RATE for
#                both.
#   FLINK_INTERVAL  flat out, our rows' interval on portable Flink (default
#                400ns: 2.5 M rows/s offered, about what Beam's Flink runner
#                carries here). An offer well above what it carries is not
#                flat out but behind schedule: the rows due pile up, the
#                job's sources stop at the stream's end plus a margin while
#                the generator still has rows to emit, and it emits them at
#                its end of input, where no checkpoint completes and the last
#                panes commit only when the job ends (docs/dataflow.md).
#   RUNS         3; WRITERS "native prism flink" (any subset, in that rotation)
#   RATE         0 = flat out, else rows/s for every writer
#   CHECKPOINT   20s, native Flink's checkpoint interval (its sink commits once
#                a checkpoint), matching our 20 s trigger
#   PORTABLE_CHECKPOINT  5s, our pipeline on Beam's Flink runner
#                (bench-clicks' CHECKPOINT default)
#   TRIGGER      20, our triggering frequency (s)
#   PARALLELISM  2, native Flink's (bench-clicks runs Beam's Flink at 2)
#   SEQ          0; 1 adds a seq column to all three tables (bench-clicks then
#                checks each seq once on ours; native's seqs come from a
#                DataGeneratorSource instead of SQL's datagen)
#   USERS        10 distinct user ids
#   RUN_TIMEOUT  seconds per run, default 3 x DURATION + 120 (prism flat out
#                takes over 2 x DURATION for its rows at 4.5 M rows/s): a run past it is
#                stopped (SIGTERM, SIGKILL 30 s later) and recorded as "did
#                not finish" with whatever it had committed
#   BENCH_CACHE  .cache/bench-flink-native: binaries, catalogs, runs/RUN-WRITER/
#                (each run's logs, /usr/bin/time and /proc figures,
#                table metadata, result.json)
#   JAVA_OPTS    extra JVM options for native Flink (default none: the JVM's
#                own heap sizing, as the job server gets)
#
# Figures, each from the writer's table (snapshots read back from its catalog)
# and its processes:
#   rows/s       committed rows / (last commit - pipeline start), start-up
#                included (bench-clicks' "sustained"). Pipeline start: ours,
#                bench-clicks' START_MS (after its job server is up); native,
#                the moment its JVM is launched (Flink's mini cluster, planner
#                and catalog start-up, 6 to 10 s here, are inside; the job
#                server's own start-up is not inside ours on Flink, but its
#                CPU is counted below).
#   CPU s per million rows  user + system CPU of every process of the writer
#                / committed rows: native, its one JVM; prism, the clicks
#                process; portable Flink, the clicks process (the SDK
#                workers, LOOPBACK) plus the job server JVM (which runs Flink;
#                its start-up before the job included). The catalog server is
#                counted for none. Each process's figures come from
#                /usr/bin/time -v where it is its child (native's JVM, our
#                clicks process, via bench-clicks), else from /proc sampled
#                every 0.5 s (the job server, and any process of a run that
#                timed out): utime+stime+cutime+cstime and VmHWM, the last
#                sample before it exits.
#   peak RSS     the sum of each process's peak (ours on Flink: Go + job
#                server JVM; a sum of peaks, so at least the peak of the sum)
#   snapshots, data files   in the table after the run (added-data-files summed)
#   commit latency p50 / max  native: snapshot timestamp - the trigger time of
#                the checkpoint it commits (Flink's "Triggering checkpoint N
#                ... @ MS" log line; the snapshot names N in
#                flink.max-committed-checkpoint-id); the final stop-with-
#                savepoint is such a checkpoint too. Ours:
#                scripts/lib/panes.py, snapshot timestamp - the
#                moment the pane's trigger was due. p50 is the middle commit
#                (panes.py's median).
# The medians table takes each figure's median over a writer's finished runs
# (if none finished, over those that committed something, and says so); the
# per-run table has every run, timed-out ones marked. Each start wipes
# BENCH_CACHE/runs.
#
# Needs Java 17 (11+), Maven 3.6.3+ (assembles scripts/flink-native/pom.xml
# into .cache/flink-native/lib once), javac, Go, Python 3, GNU time, timeout.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

log() { printf '[bench-flink-native %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { echo "bench-flink-native: $*" >&2; exit 1; }
# shellcheck source=scripts/lib/serve.sh
source scripts/lib/serve.sh
# java_bin, check_java, assemble_pom, build_lock; they call log and die above.
# shellcheck source=scripts/lib/maven.sh
source scripts/lib/maven.sh
java_require 11 17 "Flink 1.20.1 (scripts/flink-native)"

DURATION=${DURATION:-100s}
RUNS=${RUNS:-3}
WRITERS=${WRITERS:-native prism flink}
RATE=${RATE:-0}
CHECKPOINT=${CHECKPOINT:-20s}
PORTABLE_CHECKPOINT=${PORTABLE_CHECKPOINT:-5s}
TRIGGER=${TRIGGER:-20}
PARALLELISM=${PARALLELISM:-2}
SEQ=${SEQ:-0}
USERS=${USERS:-10}
OUT=${BENCH_CACHE:-.cache/bench-flink-native}
TABLE=clicks.user_clicks
HELPER=scripts/flink-native/bench.py
NATIVE_LIB=.cache/flink-native

# DURATION in ms: a Go duration of one unit (100s, 2m, 1500ms).
DUR_MS=$(python3 -c "
import re, sys
m = re.fullmatch(r'(\d+(?:\.\d+)?)(ms|s|m|h)', sys.argv[1]) or sys.exit('bench-flink-native: DURATION wants e.g. 100s, 2m, 1500ms')
print(round(float(m.group(1)) * {'ms': 1, 's': 1e3, 'm': 6e4, 'h': 3.6e6}[m.group(2)]))" "$DURATION")
RUN_TIMEOUT=${RUN_TIMEOUT:-$((DUR_MS * 3 / 1000 + 120))}
for w in $WRITERS; do
  case "$w" in native | prism | flink) ;; *) die "WRITERS: want native, prism or flink (got '$w')" ;; esac
done
[[ "$RATE" =~ ^[0-9]+$ ]] || die "RATE: want rows/s, 0 for flat out (got '$RATE')"
if [ "$RATE" -gt 0 ]; then
  PRISM_INTERVAL="$((1000000000 / RATE))ns" FLINK_INTERVAL=$PRISM_INTERVAL
else
  PRISM_INTERVAL=100ns FLINK_INTERVAL=${FLINK_INTERVAL:-400ns}
fi
[ "$PARALLELISM" = 2 ] || [[ " $WRITERS " != *" flink "* ]] ||
  log "note: PARALLELISM=$PARALLELISM is native Flink's; bench-clicks runs Beam's Flink at parallelism 2"

# The processes this script starts, stopped on exit.
SERVE_PID=
MON_PID=
cleanup() {
  [ -z "$MON_PID" ] || kill "$MON_PID" 2> /dev/null || true
  [ -z "$SERVE_PID" ] || kill "$SERVE_PID" 2> /dev/null || true
}
trap cleanup EXIT

# --- Set-up: icebeam for native's catalog, native Flink's classpath and main.
mkdir -p "$OUT"
rm -rf "$OUT/runs"
mkdir -p "$OUT/runs"
# bench-clicks builds the same two binaries into its BENCH_CACHE on every
# run: built here first (and copied, build ids and all), its builds find them
# up to date, so that no run's time-out is spent building.
log "building icebeam and clicks"
CGO_ENABLED=0 go build -trimpath -o "$OUT/icebeam" ./cmd/icebeam
CGO_ENABLED=0 go build -trimpath -o "$OUT/clicks" ./pipelines/clicks
for w in prism flink; do
  [[ " $WRITERS " == *" $w "* ]] || continue
  mkdir -p "$OUT/$w"
  cp -p "$OUT/icebeam" "$OUT/clicks" "$OUT/$w/"
done
if [[ " $WRITERS " == *" native "* ]]; then
  assemble_pom "$ROOT/scripts/flink-native/pom.xml" "$ROOT/$NATIVE_LIB" "" "Flink 1.20.1 + Iceberg's Flink sink"
  # FlinkNativeBench.java, compiled once per source and pom.
  want=$(cat scripts/flink-native/FlinkNativeBench.java scripts/flink-native/pom.xml | sha256sum | cut -d' ' -f1)
  if ! build_lock "$NATIVE_LIB/main" "$want" "$NATIVE_LIB/main/classes"; then
    command -v javac > /dev/null 2>&1 || die "javac not found: install a JDK (apt-get install openjdk-17-jdk-headless)"
    rm -rf "$NATIVE_LIB/main/classes"
    javac -nowarn -proc:none --release 11 -d "$NATIVE_LIB/main/classes" -cp "$NATIVE_LIB/lib/*" \
      scripts/flink-native/FlinkNativeBench.java > "$NATIVE_LIB/main/javac.log" 2>&1 ||
      die "compiling scripts/flink-native/FlinkNativeBench.java failed: $(tail -n 20 "$NATIVE_LIB/main/javac.log")"
    build_done "$NATIVE_LIB/main" "$want"
    fi
  check_java
fi

# Java 17 needs these for Flink's reflection (Kryo fails on HeapByteBuffer
# without java.nio); the set of scripts/jobserver.sh.
ADD_OPENS=()
for p in java.base/java.util java.base/java.lang java.base/java.lang.reflect java.base/java.io java.base/java.net \
  java.base/java.nio java.base/sun.nio.ch java.base/java.util.concurrent java.base/java.time java.base/java.text java.sql/java.sql; do
  ADD_OPENS+=("--add-opens=$p=ALL-UNNAMED")
done
# slf4j-simple: warnings, and at info the lines the figures come from:
# checkpoint triggers, task state changes, the sink's commits.
LOG_PROPS=(
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.checkpoint.CheckpointCoordinator=info
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.executiongraph.ExecutionGraph=info
  -Dorg.slf4j.simpleLogger.log.org.apache.iceberg.flink.sink.IcebergFilesCommitter=info
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.util.HadoopUtils=error
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.security.token=error
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.webmonitor.WebMonitorUtils=error
  -Dorg.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader=error
  -Dorg.slf4j.simpleLogger.showDateTime=true
  "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSSZ"
)

# start_monitor FILE ARGS...: bench.py procs in the background (MON_PID).
start_monitor() {
  python3 "$HELPER" procs "$@" &
  MON_PID=$!
}
stop_monitor() {
  kill "$MON_PID" 2> /dev/null || true
  wait "$MON_PID" 2> /dev/null || true
  MON_PID=
}

# result_init DIR WRITER RUN POSITION RC START_MS: the run's facts, before
# bench.py adds the figures.
result_init() {
  local finished=true why=""
  case "$5" in
    0) ;;
    124 | 137) finished=false why="timeout after ${RUN_TIMEOUT}s" ;;
    *) finished=false why="exit $5" ;;
  esac
  printf '{"writer": "%s", "run": %s, "position": %s, "exit": %s, "finished": %s, "why": "%s", "start_ms": %s}\n' \
    "$2" "$3" "$4" "$5" "$finished" "$why" "${6:-0}" > "$1/result.json"
}

# run_native DIR RUN POSITION
run_native() {
  local dir=$1 cache="$OUT/native" rc=0 start_ms args
  rm -rf "$cache"
  mkdir -p "$cache"
  start_serve "$OUT/icebeam" "$cache/lakehouse" "$dir/serve.log"
  args=(--uri="$SERVE_URI" --table="$TABLE" --parallelism="$PARALLELISM" --checkpoint="$CHECKPOINT"
    --users="$USERS" --seq="$([ "$SEQ" = 1 ] && echo true || echo false)" --savepoints="file://$ROOT/$cache/savepoints")
  local opts=()
  # shellcheck disable=SC2206 # JAVA_OPTS is a list of words on purpose
  [ -z "${JAVA_OPTS:-}" ] || opts=(${JAVA_OPTS})
  local marker
  marker="-Dicebeam.bench.run=$(basename "$dir")"
  start_monitor "$dir/procs.json" --exe "$(java_bin)" --arg "$marker"
  start_ms=$(date +%s%3N)
  if [ "$RATE" -gt 0 ]; then
    args+=(--rate="$RATE" --run_for_ms="$DUR_MS")
  else
    args+=(--stop_at_ms=$((start_ms + DUR_MS)))
  fi
  echo "run: FlinkNativeBench ${args[*]}" > "$dir/out.log"
  timeout -k 30 "$RUN_TIMEOUT" /usr/bin/time -v -o "$dir/time.txt" "$(java_bin)" "${ADD_OPENS[@]}" "${opts[@]}" "$marker" \
    "${LOG_PROPS[@]}" -cp "$NATIVE_LIB/main/classes:$NATIVE_LIB/lib/*" icebeam.bench.FlinkNativeBench "${args[@]}" \
    > "$dir/flink.log" 2>&1 || rc=$?
  stop_monitor
  grep '^flink-native:' "$dir/flink.log" >> "$dir/out.log" || true
  [ "$rc" = 0 ] || { echo "native Flink: exit $rc; the end of $dir/flink.log:"; grep -v '^\s*at ' "$dir/flink.log" | tail -n 5; } >&2
  python3 "$HELPER" fetch "$SERVE_URI" "$TABLE" "$dir/metadata.json" || echo "{}" > "$dir/metadata.json"
  kill "$SERVE_PID" 2> /dev/null || true
  wait "$SERVE_PID" 2> /dev/null || true
  SERVE_PID=
  result_init "$dir" native "$2" "$3" "$rc" "$start_ms"
  python3 "$HELPER" native "$dir" "$start_ms"
}

# run_ours WRITER DIR RUN POSITION: scripts/bench-clicks.sh with this run's
# parameters, its output stamped with epoch µs (its "run:" line is printed
# just before START_MS); then the catalog it wrote is served again to read
# the table back (bench-clicks stops its catalog; a timed-out run never got
# to its report).
run_ours() {
  local w=$1 dir=$2 cache="$OUT/$1" rc=0 start_ms
  rm -f "$cache/time.txt" "$cache/panes.txt"
  mkdir -p "$cache"
  start_monitor "$dir/procs.json" --exe "$cache/clicks" --pid-log "$dir/out.log"
  set +e
  local interval=$PRISM_INTERVAL
  [ "$w" = prism ] || interval=$FLINK_INTERVAL
  RUNNER=$w BENCH_CACHE=$cache DURATION=$DURATION INTERVAL=$interval TRIGGER=$TRIGGER CHECKPOINT=$PORTABLE_CHECKPOINT \
    SEQ=$SEQ USERS=$USERS TABLE=$TABLE timeout -k 30 "$RUN_TIMEOUT" scripts/bench-clicks.sh 2>&1 |
    while IFS= read -r line; do printf '%s %s\n' "${EPOCHREALTIME/./}" "$line"; done > "$dir/out.log"
  rc=${PIPESTATUS[0]}
  set -e
  stop_monitor
  [ "$rc" = 0 ] || { echo "$w: bench-clicks exit $rc; the end of its output ($dir/out.log):"; tail -n 5 "$dir/out.log"; } >&2
  cp "$cache/time.txt" "$dir/time.txt" 2> /dev/null || true
  start_ms=$(sed -n 's/^\([0-9]*\) run: clicks .*/\1/p' "$dir/out.log" | head -1)
  start_ms=$((${start_ms:-0} / 1000))
  if [ -d "$cache/lakehouse" ] && [ "$start_ms" -gt 0 ]; then
    start_serve "$cache/icebeam" "$cache/lakehouse" "$dir/serve-after.log"
    python3 scripts/lib/panes.py "$SERVE_URI" "$TABLE" "$start_ms" "$TRIGGER" > "$dir/panes.txt" 2>&1 || true
    python3 "$HELPER" fetch "$SERVE_URI" "$TABLE" "$dir/metadata.json" || echo "{}" > "$dir/metadata.json"
    kill "$SERVE_PID" 2> /dev/null || true
    wait "$SERVE_PID" 2> /dev/null || true
    SERVE_PID=
  else
    echo "{}" > "$dir/metadata.json"
  fi
  result_init "$dir" "$w" "$3" "$4" "$rc" "$start_ms"
  python3 "$HELPER" ours "$dir" "$cache"
}

read -r -a WL <<< "$WRITERS"
T0=$(date +%s)
TITLE="$(nproc) cores; DURATION=$DURATION, $([ "$RATE" -gt 0 ] && echo "RATE=$RATE rows/s" || echo "flat out"), RUNS=$RUNS;\
 native: parallelism $PARALLELISM, ${CHECKPOINT} checkpoints; ours: ${TRIGGER} s trigger, portable Flink at\
 parallelism 2 with ${PORTABLE_CHECKPOINT} checkpoints; SEQ=$SEQ; $(date +%Y-%m-%d)"
log "$TITLE"
for ((r = 0; r < RUNS; r++)); do
  for ((k = 0; k < ${#WL[@]}; k++)); do
    w=${WL[$(((r + k) % ${#WL[@]}))]}
    dir="$OUT/runs/$((r + 1))-$w"
    mkdir -p "$dir"
    log "run $((r + 1))/$RUNS, $w (load $(cut -d' ' -f1-3 /proc/loadavg))"
    if [ "$w" = native ]; then
      run_native "$dir" "$r" "$k"
    else
      run_ours "$w" "$dir" "$r" "$k"
    fi
  done
done
python3 "$HELPER" report "$OUT/runs" "$TITLE"
log "done in $(($(date +%s) - T0))s; each run's files: $OUT/runs/"
