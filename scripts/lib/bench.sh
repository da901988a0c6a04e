# shellcheck shell=bash
# What the side-by-side benchmarks of a system against its peers share:
# sourced by scripts/bench-kafka.sh and scripts/bench-debezium.sh, after
# scripts/lib/maven.sh (it sources scripts/lib/serve.sh). The sourcing script sets OUT (its cache: runs and
# catalog), BIN (.cache/bin), LIBS (.cache/kafka-bench), PY (the venv's
# python) and HELPER (scripts/kafka-bench/bench.py), and defines log and die.
#
#   bench_cleanup                  stops what these functions started (SYS_PIDS,
#                                  SAMPLER_PIDS, SERVE_PID, BROKER_PID); call it
#                                  from the script's EXIT trap
#   stop_wrapped PID SIG SECS      stops a process started under /usr/bin/time
#   free_port                      prints a free loopback port
#   start_catalog DIR              `icebeam serve` on OUT/lakehouse under /usr/bin/time
#                                  (DIR/serve.time, DIR/serve.log); sets SERVE_PID, SERVE_URI
#   launch DIR NAME CMD...         a process of the system under test, under /usr/bin/time
#   watch DIR NAME PID             samples a process not launched here (bench.py sample)
#   ensure_venv                    LIBS/venv with pyiceberg[pyarrow], once
#   build_flink_bench              Flink SQL's classpath (scripts/kafka-bench/flink/pom.xml)
#                                  and its programs compiled into LIBS/flink/main/classes
#   FLINK_JVM                      the JVM options Flink 1.20 needs on Java 17, and its
#                                  logging (slf4j-simple) at warn but for its commits
#
# Every process of the system under test runs under /usr/bin/time -v, which
# outlives it to write its CPU and peak RSS: that is why stopping one signals
# the child of the time process, not the time process.

# shellcheck source=scripts/lib/serve.sh
source "$(dirname "${BASH_SOURCE[0]}")/serve.sh"

BROKER_PID=
SERVE_PID=      # the /usr/bin/time wrapping icebeam serve
SYS_TIMES=()    # the time files of the run's system, relative to its directory
SYS_PIDS=()     # the /usr/bin/time wrapping each process of the system under test
SAMPLER_PIDS=() # bench.py sample, for processes not started under /usr/bin/time

bench_cleanup() {
  local p
  for p in "${SYS_PIDS[@]}"; do stop_wrapped "$p" TERM 10 || true; done
  for p in "${SAMPLER_PIDS[@]}"; do kill "$p" 2> /dev/null || true; done
  [ -z "$SERVE_PID" ] || stop_wrapped "$SERVE_PID" TERM 10 || true
  [ -z "$BROKER_PID" ] || scripts/kafka.sh stop "$BROKER_PID" > /dev/null 2>&1 || true
}

# stop_wrapped PID SIG SECS: sends SIG to the child of PID (a /usr/bin/time,
# which must outlive it to write its figures), waits up to SECS for PID to
# exit, then SIGKILLs the child.
stop_wrapped() {
  local pid=$1 sig=$2 secs=$3 child
  kill -0 "$pid" 2> /dev/null || {
    wait "$pid" 2> /dev/null || true
    return 0
  }
  child=$(pgrep -P "$pid" | head -1 || true)
  [ -z "$child" ] || kill -"$sig" "$child" 2> /dev/null || true
  for _ in $(seq $((secs * 10))); do
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2> /dev/null; then
    log "pid $child did not exit within ${secs}s of SIG$sig: SIGKILL"
    [ -z "$child" ] || kill -KILL "$child" 2> /dev/null || true
  fi
  wait "$pid" 2> /dev/null || true
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_catalog DIR: icebeam serve on $OUT/lakehouse (the same catalog for
# every run, started afresh for each so that its CPU is the run's), under
# /usr/bin/time; sets SERVE_PID, SERVE_URI.
start_catalog() {
  start_serve "$BIN/icebeam" "$OUT/lakehouse" "$1/serve.log" /usr/bin/time -v -o "$1/serve.time"
}

# launch DIR NAME CMD...: one process of the system under test, in the
# background under /usr/bin/time (DIR/NAME.time, its output in DIR/NAME.log).
launch() {
  local dir=$1 name=$2
  shift 2
  echo "$*" > "$dir/$name.cmd"
  /usr/bin/time -v -o "$dir/$name.time" "$@" > "$dir/$name.log" 2>&1 &
  SYS_PIDS+=($!)
  SYS_TIMES+=("$name.time")
}

# watch DIR NAME PID: for a process of the system that is not launched here
# (a job server, say): samples its /proc figures into DIR/NAME.time until it
# exits (or the run ends).
watch() {
  "$PY" "$HELPER" sample "$3" "$1/$2.time" &
  SAMPLER_PIDS+=($!)
  SYS_TIMES+=("$2.time")
}

ensure_venv() {
  if ! "$PY" -c 'import pyiceberg, pyarrow' 2> /dev/null; then
    log "making $LIBS/venv with pyiceberg[pyarrow] (PyPI)"
    python3 -m venv "$LIBS/venv"
    "$LIBS/venv/bin/pip" install -q 'pyiceberg[pyarrow]==0.12.0' || die "pip install pyiceberg[pyarrow] failed"
  fi
}

build_flink_bench() {
  local src=scripts/kafka-bench/flink want
  assemble_pom "$ROOT/$src/pom.xml" "$ROOT/$LIBS/flink" "" "Flink 1.20.1 SQL + kafka + Iceberg's Flink sink"
  want=$(cat "$src"/*.java "$src/pom.xml" | sha256sum | cut -d' ' -f1)
  if ! build_lock "$LIBS/flink/main" "$want" "$LIBS/flink/main/classes"; then
    command -v javac > /dev/null 2>&1 || die "javac not found: install a JDK (apt-get install openjdk-17-jdk-headless)"
    rm -rf "$LIBS/flink/main/classes"
    javac -nowarn -proc:none --release 11 -d "$LIBS/flink/main/classes" -cp "$LIBS/flink/lib/*" \
      "$src"/*.java > "$LIBS/flink/main/javac.log" 2>&1 ||
      die "compiling $src/*.java failed: $(tail -n 20 "$LIBS/flink/main/javac.log")"
    build_done "$LIBS/flink/main" "$want"
  fi
}

# Java 17 needs these for Flink's reflection (scripts/bench-flink-native.sh's set).
FLINK_JVM=()
for p in java.base/java.util java.base/java.lang java.base/java.lang.reflect java.base/java.io java.base/java.net \
  java.base/java.nio java.base/sun.nio.ch java.base/java.util.concurrent java.base/java.time java.base/java.text java.sql/java.sql; do
  FLINK_JVM+=("--add-opens=$p=ALL-UNNAMED")
done
FLINK_JVM+=(
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.checkpoint.CheckpointCoordinator=info
  -Dorg.slf4j.simpleLogger.log.org.apache.iceberg.flink.sink.IcebergFilesCommitter=info
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.util.HadoopUtils=error
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.security.token=error
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.webmonitor.WebMonitorUtils=error
  -Dorg.slf4j.simpleLogger.log.org.apache.flink.metrics.MetricGroup=error
  -Dorg.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader=error
  -Dorg.slf4j.simpleLogger.showDateTime=true
  "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd HH:mm:ss.SSSZ"
)
