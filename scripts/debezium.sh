#!/usr/bin/env bash
# Debezium 3.6.1's PostgreSQL connector on Kafka Connect 4.3.0 standalone,
# assembled from Maven Central and run on loopback: it captures one
# database of a PostgreSQL server (scripts/postgres.sh) into a Kafka broker
# (scripts/kafka.sh), one topic per table, PREFIX.SCHEMA.TABLE, for the
# "databases in" tests and for people.
#
#   scripts/debezium.sh assemble        # jars into .cache/debezium/lib (and Kafka's), once
#   scripts/debezium.sh classpath       # prints the java classpath
#   scripts/debezium.sh start [options] # prints "PID 127.0.0.1:RESTPORT" once the connector's
#                                       # task runs and streams changes, its snapshot in Kafka
#                                       # (every snapshot record acknowledged: its topics exist)
#   scripts/debezium.sh stop PID|DIR|all
#                                       # a clean shutdown (SIGTERM): the offsets are
#                                       # flushed to DIR, the replication slot stays
#   scripts/debezium.sh status DIR      # the connector's status (Connect's REST API), JSON
#
# start options:
#   --bootstrap HOST:PORT  the Kafka broker (required)
#   --pg HOST:PORT         the PostgreSQL server (required); Debezium logs in as
#                          --user, without a password (postgres.sh trusts loopback)
#   --db NAME              the database to capture (required)
#   --prefix PREFIX        topic.prefix: topics PREFIX.SCHEMA.TABLE (required;
#                          [A-Za-z0-9_] and not starting with a digit, so that it also
#                          names the replication slot and the publication)
#   --dir DIR              the worker's directory (default .cache/debezium/PREFIX):
#                          worker.properties and connector.properties (rewritten at
#                          every start), the source offsets (DIR/offsets.dat) and the
#                          log (DIR/connect.log, every run one after the other). A
#                          start on the same DIR after stop goes on from the offsets:
#                          no second snapshot, no change lost.
#   --tables S.T1,S.T2     capture only these tables (table.include.list; the
#                          publication then holds only them); default: every table
#   --transactions         provide.transaction.metadata=true: BEGIN/END events on
#                          PREFIX.transaction and a transaction block in each event
#   --user NAME            the database user (default postgres, a superuser: it
#                          creates the publication FOR ALL TABLES)
#   --snapshot MODE        snapshot.mode (default initial: the tables' rows first, as
#                          op "r", then the changes)
#   --set KEY=VALUE        one more connector property (repeatable), e.g.
#                          --set heartbeat.interval.ms=1000
#   --owner PID            stop the worker when process PID exits (for tests that may die)
#
# The connector: pgoutput (PostgreSQL's own decoder), a replication slot and a
# publication named after PREFIX (dbz_PREFIX, lower case) so that several
# connectors share a server; the JSON converter with schemas.enable=true for
# keys and values ({"schema":..., "payload":...}); topics created by Connect
# with 1 partition and replication factor 1 (the broker creates none on use);
# Debezium's defaults otherwise (decimal.handling.mode=precise,
# time.precision.mode=adaptive, tombstones after deletes), except
# skipped.operations=none: Debezium skips TRUNCATE events by default.
#
# Environment: DEBEZIUM_CACHE (default .cache/debezium), DEBEZIUM_M2 (a private
# Maven local repository; default ~/.m2), DEBEZIUM_LOG_LEVEL (the root logger,
# default warn; Debezium's own io.debezium logs at info), DEBEZIUM_HEAP (-Xmx,
# default 384m), DEBEZIUM_JAVA_OPTS, DEBEZIUM_START_TIMEOUT (seconds, default
# 120), JAVA_HOME; KAFKA_CACHE and KAFKA_M2 as for scripts/kafka.sh.
#
# The jars come from scripts/debezium/pom.xml (why those: see the comments
# there) and scripts/kafka/pom.xml, via `mvn dependency:copy-dependencies`; a
# stamp holds each pom's sha256. Needs Java 17+ and, for assembling, Maven
# 3.6.3+.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DEBEZIUM_CACHE:-$ROOT/.cache/debezium}
LIB=$CACHE/lib
KAFKA_LIB=${KAFKA_CACHE:-$ROOT/.cache/kafka}/lib
LOG_LEVEL=${DEBEZIUM_LOG_LEVEL:-warn}
START_TIMEOUT=${DEBEZIUM_START_TIMEOUT:-120}

log() { printf '[debezium %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  echo "debezium: $*" >&2
  exit 1
}

# shellcheck source-path=SCRIPTDIR source=lib/service.sh disable=SC1091
source "$ROOT/scripts/lib/service.sh"
SERVICE=worker
SERVICE_CMDLINE=ConnectStandalone

# shellcheck source-path=SCRIPTDIR source=lib/maven.sh disable=SC1091
source "$ROOT/scripts/lib/maven.sh"
java_require 17 "" "Debezium 3.6 on Kafka Connect 4.3"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

assemble() {
  "$ROOT/scripts/kafka.sh" assemble
  assemble_pom "$ROOT/scripts/debezium/pom.xml" "$CACHE" "${DEBEZIUM_M2:-}" "Debezium 3.6.1's PostgreSQL connector"
}

# Debezium's jars first: nothing in them is in Kafka's (the pom excludes
# it), so the order only matters if that ever changes.
classpath() { echo "$LIB/*:$KAFKA_LIB/*"; }

# rest PORT PATH: GET http://127.0.0.1:PORT/PATH, the body on stdout; fails
# on no answer or an HTTP error.
rest() { curl -sf --max-time 5 "http://127.0.0.1:$1/$2"; }

# write_config DIR REST_PORT writes DIR/worker.properties,
# DIR/connector.properties and DIR/log4j2.properties from the start's
# options (globals of start).
write_config() {
  local dir=$1 rport=$2
  cat > "$dir/worker.properties" << EOF
# Written by scripts/debezium.sh start; rewritten at every start.
bootstrap.servers=$bootstrap
key.converter=org.apache.kafka.connect.json.JsonConverter
value.converter=org.apache.kafka.connect.json.JsonConverter
key.converter.schemas.enable=true
value.converter.schemas.enable=true
offset.storage.file.filename=$dir/offsets.dat
# Debezium confirms an LSN to PostgreSQL (and PostgreSQL frees WAL) only
# once Connect has flushed the offsets: every second, not every minute, so
# that a restart replays little.
offset.flush.interval.ms=1000
listeners=http://127.0.0.1:$rport
rest.advertised.host.name=127.0.0.1
rest.advertised.port=$rport
# The connector is on the classpath, found through its ServiceLoader
# manifest: no plugin.path scan, which takes seconds.
plugin.discovery=service_load
# The broker creates no topic on use; Connect creates the connector's
# (topic.creation.default.* in the connector's properties).
topic.creation.enable=true
EOF

  local slot
  slot=dbz_$(echo "$prefix" | tr '[:upper:]' '[:lower:]')
  {
    cat << EOF
# Written by scripts/debezium.sh start; rewritten at every start.
name=$name
connector.class=io.debezium.connector.postgresql.PostgresConnector
tasks.max=1
database.hostname=${pg%:*}
database.port=${pg##*:}
database.user=$user
database.password=
database.dbname=$db
topic.prefix=$prefix
plugin.name=pgoutput
slot.name=$slot
publication.name=$slot
snapshot.mode=$snapshot
# Debezium drops TRUNCATE events by default (skipped.operations=t); a sink
# must see them to empty its table.
skipped.operations=none
topic.creation.default.partitions=1
topic.creation.default.replication.factor=1
EOF
    if [ -n "$tables" ]; then
      echo "table.include.list=$tables"
      # Only those tables in the publication: FOR ALL TABLES would also
      # decode every other table's changes, to be dropped.
      echo "publication.autocreate.mode=filtered"
    fi
    [ "$transactions" = 0 ] || echo "provide.transaction.metadata=true"
    local kv
    for kv in "${extra[@]}"; do echo "$kv"; done
  } > "$dir/connector.properties"

  cat > "$dir/log4j2.properties" << EOF
rootLogger.level = $LOG_LEVEL
rootLogger.appenderRef.stdout.ref = stdout
appender.stdout.type = Console
appender.stdout.name = stdout
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = %d{HH:mm:ss.SSS} %p [%c{1}] %m%n%ex
# Debezium's own progress: the snapshot, the slot, the start of streaming
# (which start waits for), the offsets it confirms.
logger.debezium.name = io.debezium
logger.debezium.level = info
logger.worker.name = org.apache.kafka.connect.runtime.Worker
logger.worker.level = info
EOF
}

start() {
  # Globals for write_config.
  bootstrap="" pg="" db="" prefix="" tables="" transactions=0 user=postgres snapshot=initial extra=()
  local dir="" owner=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --bootstrap) bootstrap=${2:?--bootstrap needs HOST:PORT}; shift 2 ;;
      --pg) pg=${2:?--pg needs HOST:PORT}; shift 2 ;;
      --db) db=${2:?--db needs a name}; shift 2 ;;
      --prefix) prefix=${2:?--prefix needs a value}; shift 2 ;;
      --dir) dir=${2:?--dir needs a value}; shift 2 ;;
      --tables) tables=${2:?--tables needs schema.table,...}; shift 2 ;;
      --user) user=${2:?--user needs a name}; shift 2 ;;
      --snapshot) snapshot=${2:?--snapshot needs a mode}; shift 2 ;;
      --set)
        [[ "${2:-}" == ?*=* ]] || die "start: --set wants KEY=VALUE (got '${2:-}')"
        extra+=("$2")
        shift 2
        ;;
      --transactions) transactions=1; shift ;;
      --owner) owner=${2:?--owner needs a value}; shift 2 ;;
      --*=*)
        local k=${1%%=*}
        set -- "$k" "${1#*=}" "${@:2}"
        ;;
      *) die "start: unknown option '$1' (see scripts/debezium.sh help)" ;;
    esac
  done
  [ -n "$bootstrap" ] || die "start: --bootstrap HOST:PORT is required"
  [[ "$pg" =~ ^[^:]+:[0-9]+$ ]] || die "start: --pg HOST:PORT is required (got '$pg')"
  [ -n "$db" ] || die "start: --db NAME is required"
  [[ "$prefix" =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] ||
    die "start: --prefix '$prefix' must be [A-Za-z_][A-Za-z0-9_]* (it names the topics, the slot and the publication)"
  [ -z "$owner" ] || kill -0 "$owner" 2> /dev/null || die "start: --owner $owner is not a running process"
  name=$prefix
  dir=${dir:-$CACHE/$prefix}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ -f "$dir/pid" ] && alive "$(cat "$dir/pid")"; then
    die "start: a worker (pid $(cat "$dir/pid")) already runs on $dir (scripts/debezium.sh stop $(cat "$dir/pid"))"
  fi

  assemble
  check_java
  local java logfile=$dir/connect.log
  java=$(java_bin)
  local opts=(-Xmx"${DEBEZIUM_HEAP:-384m}" -Xms64m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError
    -Djava.awt.headless=true "-Dlog4j2.configurationFile=$dir/log4j2.properties")
  # shellcheck disable=SC2206 # a list of words on purpose
  opts+=(${DEBEZIUM_JAVA_OPTS:-})

  local t0 pid attempt from rport
  t0=$(date +%s)
  for attempt in 1 2 3; do
    rport=$(free_port)
    write_config "$dir" "$rport"
    echo "=== scripts/debezium.sh start $(date '+%F %T'): $pg/$db -> $bootstrap as $prefix.*, REST :$rport" >> "$logfile"
    from=$(($(stat -c %s "$logfile") + 1))
    # Detached from the caller's stdin and stdout, or a Go test reading this
    # script's output would wait for the worker to exit.
    "$java" "${opts[@]}" -cp "$(classpath)" org.apache.kafka.connect.cli.ConnectStandalone \
      "$dir/worker.properties" "$dir/connector.properties" < /dev/null >> "$logfile" 2>&1 &
    pid=$!
    register "$pid" "$dir"
    echo "$rport" > "$dir/rest"
    echo "$name" > "$dir/name"
    log "starting Debezium ($pg/$db -> $bootstrap, topics $prefix.*), pid $pid, REST 127.0.0.1:$rport, dir $dir"
    if wait_ready "$pid" "$rport" "$logfile" "$t0" "$from"; then
      break
    fi
    forget "$pid" "$dir"
    if [ "$attempt" -lt 3 ] && tail -c +"$from" "$logfile" | grep -q 'Address already in use'; then
      log "REST port $rport was taken meanwhile; trying another"
      continue
    fi
    # Connect may bury the cause under a later stack trace (a connector
    # that fails validation ends in a NullPointerException of Connect's
    # own): its ERROR lines first, each with the line after it (the
    # exception's message), without stack frames.
    echo "debezium: the connector did not start; the errors in $logfile:" >&2
    tail -c +"$from" "$logfile" | grep -v $'^\t*at \|^\t\.\.\. [0-9]* more' | grep -A1 ' ERROR ' | head -n 30 >&2 || true
    echo "debezium: the end of $logfile:" >&2
    tail -c +"$from" "$logfile" | grep -v $'^\t*at ' | tail -n 15 >&2
    exit 1
  done
  [ -z "$owner" ] || watch_owner "$owner" "$pid"
  log "Debezium pid $pid streams, its snapshot in Kafka, after $(($(date +%s) - t0))s"
  echo "$pid 127.0.0.1:$rport"
}

# wait_ready PID REST_PORT LOG T0 FROM: 0 once the connector's task is
# RUNNING, Debezium has begun streaming (changes made from now on arrive as
# c/u/d events, not as snapshot reads) and its snapshot is in Kafka
# (snapshot_landed); 1 if the worker exited, the task failed, or not within
# START_TIMEOUT (then the worker is killed).
wait_ready() {
  local pid=$1 rport=$2 logfile=$3 t0=$4 from=$5 status streams=0
  while :; do
    alive "$pid" || return 1
    if status=$(rest "$rport" "connectors/$name/status" 2> /dev/null); then
      case "$status" in
        *'"state":"FAILED"'*)
          log "the connector failed: $status"
          kill_wait "$pid"
          return 1
          ;;
      esac
      if [ "$streams" = 0 ] && [[ "$status" == *'"tasks":[{"id":0,"state":"RUNNING"'* ]] &&
        tail -c +"$from" "$logfile" | grep -q 'Processing messages'; then
        streams=1
      fi
      if [ "$streams" = 1 ] && snapshot_landed "$rport" "$logfile" "$from"; then
        return 0
      fi
    fi
    if [ $(($(date +%s) - t0)) -ge "$START_TIMEOUT" ]; then
      if [ "$streams" = 1 ]; then
        log "the connector streams, but its snapshot was not all in Kafka within ${START_TIMEOUT}s" \
          "(Connect's committed offsets: $(rest "$rport" "connectors/$name/offsets" 2> /dev/null || echo no answer))"
      else
        log "the connector did not stream within ${START_TIMEOUT}s (status: ${status:-no answer})"
      fi
      kill_wait "$pid"
      return 1
    fi
    sleep 0.2
  done
}

# snapshot_landed REST_PORT LOG FROM, once the connector streams: 0 if the
# snapshot of this start is in Kafka. Debezium ends its snapshot while
# Connect still sends its last records (and creates the last tables'
# topics, seconds later); Connect commits a record's offset only once the
# broker has acknowledged it and every record before, so the snapshot is in
# Kafka once the committed offset is its last record's
# (snapshot_completed) or a change's after it (no snapshot key). A start
# whose snapshot exported no record (no rows, a snapshot mode without
# data, offsets from a run before) has none to wait for.
snapshot_landed() {
  local rport=$1 logfile=$2 from=$3 offsets
  tail -c +"$from" "$logfile" | grep -q 'Finished exporting [1-9][0-9]* records' || return 0
  offsets=$(rest "$rport" "connectors/$name/offsets" 2> /dev/null) || return 1
  [[ "$offsets" == *'"snapshot_completed":true'* ]] ||
    [[ "$offsets" == *'"offset":{'* && "$offsets" != *'"snapshot":'* ]]
}

status() {
  local dir=${1:?status: want DIR}
  if [ ! -f "$dir/rest" ] || [ ! -f "$dir/name" ]; then die "status: no worker started on $dir"; fi
  rest "$(cat "$dir/rest")" "connectors/$(cat "$dir/name")/status" || die "status: no answer from the worker of $dir"
  echo
}

cmd=${1:-help}
shift || true
case "$cmd" in
  assemble) assemble ;;
  classpath)
    assemble
    classpath
    ;;
  start) start "$@" ;;
  stop) stop "${1:-}" ;;
  status) status "$@" ;;
  help | -h | --help) usage ;;
  *)
    usage >&2
    die "unknown command '$cmd'"
    ;;
esac
