#!/usr/bin/env bash
# Beam's portable Flink and Spark job servers, assembled from Maven Central
# and run on this machine, for `--runner=universal --endpoint=...` (Go tests
# and people).
#
#   scripts/jobserver.sh assemble flink|spark   # jars into .cache/jobserver/RUNNER/lib, once
#   scripts/jobserver.sh classpath flink|spark  # prints the java classpath (flink: the
#                                               # patches of scripts/flink/*.patch, then lib/*)
#   scripts/jobserver.sh start flink|spark [options] [-- driver args]
#                                               # prints "PID ENDPOINT", e.g. "12345 localhost:8099"
#   scripts/jobserver.sh stop PID|flink|spark|all
#
# start options:
#   --job-port N        job service port; 0 lets the driver pick a free one
#                       (tests: read the ENDPOINT printed)
#   --artifact-port N   artifact staging port; 0 = a free one
#   --expansion-port N  Java expansion service port; 0 = a free one, -1 = none
#                       Without --job-port the three are 8099/8098/8097 (flink) and
#                       8199/8198/8197 (spark), so both runners can run at once. With
#                       --job-port the other two default to 0: clients learn the
#                       artifact endpoint from the job service.
#   --conf-dir DIR      Flink: a directory with flink-conf.yaml (--flink-conf-dir), e.g.
#                         execution.checkpointing.interval: 5s
#                         state.checkpoints.dir: file:///tmp/ckpt
#                         parallelism.default: 2
#                       Spark: a directory with spark-defaults.conf ("key value" lines),
#                       passed to the driver as -Dspark.* properties
#   --master M          --flink-master (default [local]) / --spark-master-url (default local[2])
#   --log FILE          server output (default .cache/jobserver/RUNNER/run/*/jobserver.log)
#   --owner PID         stop the server when process PID exits (for tests that may die)
#
# Environment: JOBSERVER_CACHE (default .cache/jobserver), JOBSERVER_M2 (a
# private Maven local repository; default ~/.m2), JOBSERVER_LOG_LEVEL (warn;
# info or debug show Flink's/Spark's own logs), JOBSERVER_JAVA_OPTS (e.g.
# -Xmx1g), JOBSERVER_START_TIMEOUT (seconds, default 120), JAVA_HOME.
#
# The jars come from scripts/flink/pom.xml and scripts/spark/pom.xml (why those
# versions: see the comments there) via `mvn dependency:copy-dependencies`. A
# stamp holds the pom's sha256: a second run downloads and copies nothing, a
# changed pom re-assembles. Needs Java 11 or 17 and, for assembling, Maven 3.6.3+.
#
# Note: the Beam drivers bind the job and artifact ports on all interfaces
# (gRPC forPort), whatever --job-host says; the expansion service and, as set
# here, Spark's driver stay on loopback and Spark's web UI is off.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${JOBSERVER_CACHE:-$ROOT/.cache/jobserver}
LOG_LEVEL=${JOBSERVER_LOG_LEVEL:-warn}
START_TIMEOUT=${JOBSERVER_START_TIMEOUT:-120}

# Java 17 needs these for Flink's and Spark's reflection (Kryo, closures, Unsafe).
ADD_OPENS=(
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.time=ALL-UNNAMED
  --add-opens=java.base/java.text=ALL-UNNAMED
  --add-opens=java.sql/java.sql=ALL-UNNAMED
)

log() { printf '[jobserver %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { echo "jobserver: $*" >&2; exit 1; }

# java_bin, check_java, assemble_pom; they call log and die above. (Checked on
# its own; shellcheck -x follows it.)
# shellcheck source-path=SCRIPTDIR source=lib/maven.sh disable=SC1091
source "$ROOT/scripts/lib/maven.sh"
# Flink 1.19 and Spark 3.5 need Java 11 and are tested on 11 and 17 only.
java_require 11 17 "the Flink 1.19 and Spark 3.5 job servers"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

runner_arg() {
  case "${1:-}" in
    flink | spark) echo "$1" ;;
    *) die "want a runner, flink or spark (got '${1:-}')" ;;
  esac
}

lib_dir() { echo "$CACHE/$1/lib"; }

# assemble RUNNER copies scripts/RUNNER/pom.xml's runtime dependencies into
# lib_dir RUNNER (assemble_pom's DIR/lib), once (see scripts/lib/maven.sh).
assemble() {
  assemble_pom "$ROOT/scripts/$1/pom.xml" "$CACHE/$1" "${JOBSERVER_M2:-}" "the $1 job server"
  if [ "$1" = flink ]; then assemble_patch; fi
}

# The Flink runner's classes that scripts/flink/*.patch fix (each says what
# and why at its head), in Beam's packages; the patches' paths start at org/.
PATCHED=(
  org/apache/beam/runners/fnexecution/control/BundleCheckpointHandlers.java
  org/apache/beam/runners/flink/translation/wrappers/streaming/ExecutableStageDoFnOperator.java
  org/apache/beam/runners/flink/translation/functions/FlinkExecutableStageFunction.java
)

# assemble_patch builds $CACHE/flink/patch/patches.jar, once per set of
# patches and pom: the 2.70.0 sources of the patched classes (sources jars
# from Maven Central), patched by scripts/flink/*.patch in name order,
# compiled against lib/ for Java 11+. classpath puts it ahead of lib/, so its
# classes replace Beam's.
assemble_patch() {
  local dir="$CACHE/flink/patch" want part repo=() a p patches=("$ROOT"/scripts/flink/*.patch)
  want=$(cat "${patches[@]}" "$ROOT/scripts/flink/pom.xml" | sha256sum | cut -d' ' -f1)
  build_lock "$dir" "$want" "$dir/patches.jar" && return 0
  command -v javac > /dev/null 2>&1 || die "javac not found: patching the Flink job server needs a JDK (apt-get install openjdk-17-jdk-headless)"
  log "patching the flink job server (scripts/flink/*.patch) into $dir"
  part="$dir.part"
  rm -rf "$part"
  mkdir -p "$part/src" "$part/classes"
  [ -z "${JOBSERVER_M2:-}" ] || repo=("-Dmaven.repo.local=$JOBSERVER_M2")
  for a in beam-runners-flink-1.19 beam-runners-java-fn-execution; do
    mvn -B -q -ntp -Dstyle.color=never "${repo[@]}" dependency:copy \
      -Dartifact="org.apache.beam:$a:2.70.0:jar:sources" -DoutputDirectory="$part" \
      > "$part/mvn.log" 2>&1 || die "fetching $a's sources failed; the end of $part/mvn.log:
$(tail -n 20 "$part/mvn.log")"
    unzip -q -o "$part/$a-2.70.0-sources.jar" "${PATCHED[@]}" -d "$part/src" 2> /dev/null || true
  done
  for p in "${patches[@]}"; do
    (cd "$part/src" && patch -p1 -s --no-backup-if-mismatch < "$p") ||
      die "scripts/flink/${p##*/} does not apply to Beam 2.70.0's sources"
  done
  (cd "$part/src" && javac -nowarn -proc:none --release 11 -d "$part/classes" \
    -cp "$(lib_dir flink)/*" "${PATCHED[@]}") > "$part/javac.log" 2>&1 ||
    die "compiling the patched classes failed: $(tail -n 20 "$part/javac.log")"
  jar cf "$part/patches.jar" -C "$part/classes" .
  rm -f "$dir"/*.jar
  mv "$part/patches.jar" "$dir/"
  rm -rf "$part"
  build_done "$dir" "$want"
}

# classpath RUNNER: the job server's java classpath, the Flink patch first.
classpath() {
  if [ "$1" = flink ]; then
    echo "$CACHE/flink/patch/*:$(lib_dir flink)/*"
  else
    echo "$(lib_dir "$1")/*"
  fi
}

# port_open PORT: something accepts TCP connections on 127.0.0.1:PORT.
port_open() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

start() {
  local runner=$1
  shift
  local job_port="" artifact_port="" expansion_port="" conf_dir="" master="" logfile="" owner=""
  local extra=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --job-port) job_port=${2:?--job-port needs a value}; shift 2 ;;
      --artifact-port) artifact_port=${2:?--artifact-port needs a value}; shift 2 ;;
      --expansion-port) expansion_port=${2:?--expansion-port needs a value}; shift 2 ;;
      --conf-dir) conf_dir=${2:?--conf-dir needs a value}; shift 2 ;;
      --master) master=${2:?--master needs a value}; shift 2 ;;
      --log) logfile=${2:?--log needs a value}; shift 2 ;;
      --owner) owner=${2:?--owner needs a value}; shift 2 ;;
      --job-port=* | --artifact-port=* | --expansion-port=* | --conf-dir=* | --master=* | --log=* | --owner=*)
        local k=${1%%=*}
        set -- "$k" "${1#*=}" "${@:2}"
        ;;
      --) shift; extra=("$@"); break ;;
      *) die "start: unknown option '$1' (see scripts/jobserver.sh help)" ;;
    esac
  done

  # Defaults: Beam's usual 8099/8098/8097 for Flink, 8199/8198/8197 for Spark,
  # so both can run at once. An explicit job port (tests pass 0) makes the
  # other two dynamic unless given: clients learn the artifact endpoint from
  # the job service, and nothing else needs to know them.
  local base=8099
  [ "$runner" = spark ] && base=8199
  if [ -z "$job_port" ]; then
    job_port=$base
    artifact_port=${artifact_port:-$((base - 1))}
    expansion_port=${expansion_port:-$((base - 2))}
  else
    artifact_port=${artifact_port:-0}
    expansion_port=${expansion_port:-0}
  fi
  local p
  for p in "$job_port" "$artifact_port"; do
    [[ "$p" =~ ^[0-9]+$ ]] || die "start: port '$p' is not a number"
  done
  [[ "$expansion_port" =~ ^-?[0-9]+$ ]] || die "start: --expansion-port '$expansion_port' is not a number"
  for p in "$job_port" "$artifact_port" "$expansion_port"; do
    if [ "$p" -gt 0 ] 2> /dev/null && port_open "$p"; then
      die "start: port $p is already in use (another job server? scripts/jobserver.sh stop $runner)"
    fi
  done
  [ -z "$owner" ] || kill -0 "$owner" 2> /dev/null || die "start: --owner $owner is not a running process"

  assemble "$runner"
  check_java
  local java run props=() args=()
  java=$(java_bin)
  mkdir -p "$CACHE/$runner/run"
  # Keep the run dirs (logs) of the 10 newest stopped servers.
  local old
  # shellcheck disable=SC2012 # mktemp names: no spaces
  for old in $(ls -1dt "$CACHE/$runner/run"/*/ 2> /dev/null | tail -n +11); do
    [ -f "$old/pid" ] || rm -rf "$old"
  done
  run=$(mktemp -d "$CACHE/$runner/run/XXXXXX")
  if [ -n "$logfile" ]; then
    mkdir -p "$(dirname "$logfile")"
  else
    logfile="$run/jobserver.log"
  fi
  logfile=$(cd "$(dirname "$logfile")" && pwd)/$(basename "$logfile")

  args=(--job-port "$job_port" --artifact-port "$artifact_port" --expansion-port "$expansion_port"
    --artifacts-dir "$run/artifacts")
  case "$runner" in
    flink)
      # slf4j-simple: Flink at LOG_LEVEL, the driver's "started on" and
      # "Starting job invocation" lines at info.
      props=(
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=$LOG_LEVEL"
        -Dorg.slf4j.simpleLogger.log.org.apache.beam.runners.jobsubmission=info
        -Dorg.slf4j.simpleLogger.showDateTime=true
        -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS
      )
      if [ "$LOG_LEVEL" = warn ]; then
        # Warnings every job prints that say nothing here: no Kerberos tokens,
        # no log file for the web UI, operator names over 80 characters in
        # metric names, and a stack trace from the artifact clean-up (the Go
        # SDK's LOOPBACK jobs leave nothing it can match there).
        props+=(
          -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.security.token=error
          -Dorg.slf4j.simpleLogger.log.org.apache.flink.runtime.webmonitor.WebMonitorUtils=error
          -Dorg.slf4j.simpleLogger.log.org.apache.flink.metrics.MetricGroup=error
          -Dorg.slf4j.simpleLogger.log.org.apache.beam.runners.jobsubmission.InMemoryJobService=error
        )
      fi
      args+=(--flink-master "${master:-[local]}")
      if [ -n "$conf_dir" ]; then
        [ -f "$conf_dir/flink-conf.yaml" ] || [ -f "$conf_dir/config.yaml" ] ||
          die "start: $conf_dir has no flink-conf.yaml"
        args+=(--flink-conf-dir "$(cd "$conf_dir" && pwd)")
      fi
      ;;
    spark)
      # Spark logs through log4j2; this config keeps it at LOG_LEVEL.
      cat > "$run/log4j2.properties" << EOF
rootLogger.level = $LOG_LEVEL
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n%ex
logger.jobsubmission.name = org.apache.beam.runners.jobsubmission
logger.jobsubmission.level = info
EOF
      if [ "$LOG_LEVEL" = warn ]; then
        # Warnings every job prints that say nothing here (see Flink's above).
        cat >> "$run/log4j2.properties" << 'EOF'
logger.native.name = org.apache.hadoop.util.NativeCodeLoader
logger.native.level = error
logger.cleanup.name = org.apache.beam.runners.jobsubmission.InMemoryJobService
logger.cleanup.level = error
EOF
      fi
      # SparkConf reads spark.* system properties: the driver and block
      # manager stay on loopback, the web UI (port 4040, all interfaces) is off.
      props=(
        "-Dlog4j2.configurationFile=$run/log4j2.properties"
        -Dspark.ui.enabled=false
        -Dspark.driver.host=127.0.0.1
        -Dspark.driver.bindAddress=127.0.0.1
      )
      if [ -n "$conf_dir" ]; then
        [ -f "$conf_dir/spark-defaults.conf" ] || die "start: $conf_dir has no spark-defaults.conf"
        local key value
        while read -r key value; do
          case "$key" in '' | '#'*) continue ;; esac
          props+=("-D$key=$value")
        done < "$conf_dir/spark-defaults.conf"
      fi
      args+=(--spark-master-url "${master:-local[2]}")
      ;;
  esac

  local main=org.apache.beam.runners.flink.FlinkJobServerDriver
  [ "$runner" = spark ] && main=org.apache.beam.runners.spark.SparkJobServerDriver
  # The JVM's temporary files (Flink's RPC jar, 22 MB a start, which a
  # killed server leaves behind; Spark's shuffle files) go to the run dir,
  # which stop removes, not to /tmp, where each start left its own.
  mkdir -p "$run/tmp"
  local opts=("-Djava.io.tmpdir=$run/tmp")
  # shellcheck disable=SC2206 # JOBSERVER_JAVA_OPTS is a list of words on purpose
  [ -z "${JOBSERVER_JAVA_OPTS:-}" ] || opts+=(${JOBSERVER_JAVA_OPTS})
  # The log exists before the wait loop reads it: the background job opens
  # it only once it runs, and a loaded machine can run the loop's sed first
  # (which, under set -e and pipefail, ended the script with status 2).
  : > "$logfile"
  # stdin/stdout/stderr detached from the caller: a Go test reading this
  # script's stdout would otherwise wait for the server to exit.
  # SPARK_LOCAL_IP: Spark would otherwise pick eth0's address for itself.
  SPARK_LOCAL_IP=127.0.0.1 SPARK_LOCAL_HOSTNAME=localhost \
    "$java" "${ADD_OPENS[@]}" "${opts[@]}" "${props[@]}" -cp "$(classpath "$runner")" "$main" "${args[@]}" "${extra[@]}" \
    < /dev/null > "$logfile" 2>&1 &
  local pid=$!
  echo "$pid" > "$run/pid"
  echo "$logfile" > "$run/log"
  log "starting the $runner job server, pid $pid, log $logfile"

  # Ready when the driver has logged its job endpoint and that port accepts
  # connections.
  local t0 port=""
  t0=$(date +%s)
  while :; do
    if ! kill -0 "$pid" 2> /dev/null; then
      echo "jobserver: the $runner job server exited during start; the end of $logfile:" >&2
      tail -n 30 "$logfile" >&2
      exit 1
    fi
    if [ -z "$port" ]; then
      port=$(sed -n 's/.*JobService started on [^ ]*:\([0-9][0-9]*\).*/\1/p' "$logfile" | head -1)
    fi
    if [ -n "$port" ] && port_open "$port"; then
      break
    fi
    if [ $(($(date +%s) - t0)) -ge "$START_TIMEOUT" ]; then
      kill_wait "$pid"
      rm -f "$run/pid"
      echo "jobserver: the $runner job server did not listen within ${START_TIMEOUT}s; the end of $logfile:" >&2
      tail -n 30 "$logfile" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "localhost:$port" > "$run/endpoint"
  if [ -n "$owner" ]; then
    # Watchdog: stops the server once the owner is gone.
    (
      while kill -0 "$owner" 2> /dev/null && kill -0 "$pid" 2> /dev/null; do sleep 1; done
      kill "$pid" 2> /dev/null || true
    ) < /dev/null > /dev/null 2>&1 &
  fi
  log "$runner job server pid $pid listening on localhost:$port after $(($(date +%s) - t0))s"
  echo "$pid localhost:$port"
}

# kill_wait PID: SIGTERM, up to 15 s to exit, then SIGKILL.
kill_wait() {
  local pid=$1
  kill "$pid" 2> /dev/null || return 0
  for _ in $(seq 150); do
    kill -0 "$pid" 2> /dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2> /dev/null || true
}

# stop_pid PID stops one server that this script started (its run dir names
# it) and removes its staged artifacts.
stop_pid() {
  local pid=$1 run="" f
  for f in "$CACHE"/*/run/*/pid; do
    [ -f "$f" ] && [ "$(cat "$f")" = "$pid" ] && run=$(dirname "$f") && break
  done
  [ -n "$run" ] || die "stop: pid $pid was not started by scripts/jobserver.sh (no run dir in $CACHE)"
  if kill -0 "$pid" 2> /dev/null && grep -qa JobServerDriver "/proc/$pid/cmdline" 2> /dev/null; then
    kill_wait "$pid"
    log "stopped job server pid $pid"
  fi
  rm -rf "$run/artifacts" "$run/tmp" "$run/pid"
}

stop() {
  local what=${1:-}
  case "$what" in
    flink | spark | all)
      local f found=0
      for f in "$CACHE"/*/run/*/pid; do
        [ -f "$f" ] || continue
        case "$what" in all) ;; *) [[ "$f" == "$CACHE/$what/"* ]] || continue ;; esac
        stop_pid "$(cat "$f")"
        found=1
      done
      [ "$found" = 1 ] || log "no $what job server running"
      ;;
    '' | *[!0-9]*) die "stop: want a PID, flink, spark or all (got '$what')" ;;
    *) stop_pid "$what" ;;
  esac
}

cmd=${1:-help}
shift || true
case "$cmd" in
  assemble)
    r=$(runner_arg "${1:-}")
    assemble "$r"
    ;;
  classpath)
    r=$(runner_arg "${1:-}")
    assemble "$r"
    classpath "$r"
    ;;
  start)
    r=$(runner_arg "${1:-}")
    shift
    start "$r" "$@"
    ;;
  stop) stop "${1:-}" ;;
  help | -h | --help) usage ;;
  *)
    usage >&2
    die "unknown command '$cmd'"
    ;;
esac
