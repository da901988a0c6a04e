#!/usr/bin/env bash
# A single-node Apache Kafka 4.3.0 cluster (KRaft: one process is broker and
# controller), assembled from Maven Central and run on loopback, for the Kafka
# source's tests and for people; Kafka Connect 4.3.0's jars come with it, for
# Debezium on Connect standalone.
#
#   scripts/kafka.sh assemble        # jars into .cache/kafka/lib, once
#   scripts/kafka.sh classpath       # prints the java classpath (lib/*)
#   scripts/kafka.sh start [options] # prints "PID 127.0.0.1:PORT" once the broker answers
#   scripts/kafka.sh stop PID|all    # a clean shutdown (SIGTERM), data kept
#   scripts/kafka.sh produce BOOTSTRAP TOPIC [console producer args]
#                                    # Kafka's own console producer: one record per stdin line,
#                                    # e.g. --reader-property parse.key=true
#                                    #      --reader-property key.separator=:
#                                    # Add --sync to exit 1 on a record it cannot send: without
#                                    # it, the tool logs the error (after max.block.ms, 60 s for
#                                    # a missing topic) and exits 0. With --sync add --timeout 0
#                                    # (linger.ms, else 1 s per record), and perhaps
#                                    # --command-property max.block.ms=15000.
#   scripts/kafka.sh topics BOOTSTRAP ARGS...
#                                    # Kafka's own topics tool, e.g.
#                                    #   --create --topic T --partitions 3
#                                    #   --alter --topic T --partitions 5
#                                    #   --describe --topic T
#   scripts/kafka.sh offsets BOOTSTRAP ARGS...
#                                    # Kafka's own GetOffsetShell: TOPIC:PARTITION:OFFSET lines,
#                                    # the end offsets unless --time says otherwise, e.g.
#                                    #   --topic-partitions 'pg\..*'
#
# start options:
#   --port N     the broker's port (default 9092); 0 picks a free one (tests: read
#                the address printed). The controller takes another free port.
#   --dir DIR    the cluster's directory (default .cache/kafka/default): its
#                server.properties, its logs (the data, in DIR/data) and its output
#                (DIR/kafka.log). DIR is formatted only if it holds no cluster yet:
#                `start` on the same DIR after `stop` restarts the same cluster, as
#                after an outage, with its topics, records and committed offsets.
#                Without --port, a restart takes the ports of the last start.
#   --log FILE   the server's output (default DIR/kafka.log)
#   --owner PID  stop the server when process PID exits (for tests that may die)
#   --sasl USER:PASSWORD
#                also a SASL_PLAINTEXT listener on another free port, where USER
#                logs in with PASSWORD by PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
#                (both [A-Za-z0-9._-]). The SCRAM credentials are written when DIR
#                is formatted; a restart on DIR keeps the listener, its port and
#                the user without --sasl. The output is then "PID 127.0.0.1:PORT
#                127.0.0.1:SASLPORT". The PLAINTEXT listener stays (no authorizer).
#
# The broker listens on 127.0.0.1 only; topics are not created on use (tests
# create theirs); every replication factor and min.insync.replicas is 1 (the
# offsets topic and the transaction state log included), so that consumer
# groups and transactions work on one node; the first consumer group joins
# without the usual 3 s delay.
#
# Environment: KAFKA_CACHE (default .cache/kafka), KAFKA_M2 (a private Maven
# local repository; default ~/.m2), KAFKA_LOG_LEVEL (warn; info shows the
# broker's own logs), KAFKA_HEAP (the broker's -Xmx, default 512m),
# KAFKA_JAVA_OPTS (more JVM options for the broker), KAFKA_START_TIMEOUT
# (seconds, default 120), JAVA_HOME.
#
# The jars come from scripts/kafka/pom.xml (why those: see the comments there)
# via `mvn dependency:copy-dependencies`. A stamp holds the pom's sha256: a
# second run downloads and copies nothing, a changed pom re-assembles. Needs
# Java 17+ and, for assembling, Maven 3.6.3+.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${KAFKA_CACHE:-$ROOT/.cache/kafka}
LIB=$CACHE/lib
LOG_LEVEL=${KAFKA_LOG_LEVEL:-warn}
START_TIMEOUT=${KAFKA_START_TIMEOUT:-120}

log() { printf '[kafka %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  echo "kafka: $*" >&2
  exit 1
}

# shellcheck source-path=SCRIPTDIR source=lib/service.sh disable=SC1091
source "$ROOT/scripts/lib/service.sh"
SERVICE=broker
SERVICE_CMDLINE=kafka.Kafka

# shellcheck source-path=SCRIPTDIR source=lib/maven.sh disable=SC1091
source "$ROOT/scripts/lib/maven.sh"
# Kafka 4's broker and tools need Java 17; 17 is what runs here.
java_require 17 "" "Kafka 4.3"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

assemble() {
  assemble_pom "$ROOT/scripts/kafka/pom.xml" "$CACHE" "${KAFKA_M2:-}" "Kafka 4.3.0"
  [ -n "${KAFKA_CDS_TRAINING:-}" ] || assemble_cds
}

# assemble_cds records, once per pom and java, the classes that a broker's
# start, the topics tool and the console producer load into class-data
# sharing archives ($CACHE/cds/*.jsa, Java's AppCDS): JVMs that map them
# start a broker in about 5 s instead of 8 and a tool in well under a
# second, on this 2-core machine. It runs them once for that (about 15 s).
# A JVM that cannot use an archive (another java, another lib/) ignores it.
assemble_cds() {
  local dir="$CACHE/cds" want part out
  want=$( (sha256sum < "$ROOT/scripts/kafka/pom.xml" && "$(java_bin)" -version 2>&1) | sha256sum | cut -d' ' -f1)
  # Done once even if the training failed: JVMs run without the archives
  # then, and a start does not try again (15 s) every time.
  build_lock "$dir" "$want" "$dir/.stamp" && return 0
  log "recording the classes of a broker's start and of the tools (Java class-data sharing) into $dir"
  part="$dir/part"
  rm -rf "$part" "$dir"/*.jsa
  mkdir -p "$part"
  if ! out=$(KAFKA_CDS_TRAINING=1 KAFKA_JAVA_OPTS="-XX:ArchiveClassesAtExit=$part/broker.jsa" \
    start --port 0 --dir "$part/cluster" 2> "$part/train.log"); then
    log "warning: no class-data sharing archive (the training start failed: $(tail -n 5 "$part/train.log"))"
    build_done "$dir" "$want"
    return 0
  fi
  KAFKA_CDS_TRAINING=1 KAFKA_TOOL_OPTS="-XX:ArchiveClassesAtExit=$part/TopicCommand.jsa" \
    tool org.apache.kafka.tools.TopicCommand --bootstrap-server "${out#* }" --create --topic cds --partitions 1 \
    >> "$part/train.log" 2>&1 || true
  echo line | KAFKA_CDS_TRAINING=1 KAFKA_TOOL_OPTS="-XX:ArchiveClassesAtExit=$part/ConsoleProducer.jsa" \
    tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server "${out#* }" --topic cds --sync --timeout 0 \
    >> "$part/train.log" 2>&1 || true
  # The broker writes its archive as it exits.
  stop_pid "${out%% *}" 2>> "$part/train.log"
  mv "$part"/*.jsa "$dir/" 2> /dev/null || true
  rm -rf "$part"
  build_done "$dir" "$want"
}

# cds_opts NAME prints the JVM option that maps $CACHE/cds/NAME.jsa, if
# there is one (and not while recording them).
cds_opts() {
  if [ -z "${KAFKA_CDS_TRAINING:-}" ] && [ -f "$CACHE/cds/$1.jsa" ]; then
    echo "-XX:SharedArchiveFile=$CACHE/cds/$1.jsa"
  fi
}

# tool_log4j2 writes (once) the tools' log4j2 configuration: warnings to
# stderr, so that the console producer's stdout stays clean and Log4j does
# not complain of having no configuration.
tool_log4j2() {
  local f="$CACHE/tools-log4j2.properties"
  if [ ! -f "$f" ]; then
    mkdir -p "$CACHE"
    cat > "$f.$$" << 'EOF'
rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = stderr
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n%ex
EOF
    mv "$f.$$" "$f"
  fi
  echo "$f"
}

# tool CLASS ARGS...: runs a Kafka command-line tool. The tools are short
# JVMs: C1 alone, a small heap and their class-data sharing archive start
# them faster on a busy machine.
tool() {
  local main=$1
  shift
  assemble
  check_java
  local opts=(-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
  # shellcheck disable=SC2206 # lists of words on purpose
  opts+=($(cds_opts "${main##*.}") ${KAFKA_TOOL_OPTS:-})
  "$(java_bin)" "${opts[@]}" "-Dlog4j2.configurationFile=$(tool_log4j2)" -cp "$LIB/*" "$main" "$@"
}

# cluster_id prints a new cluster id as Kafka makes them (Uuid: 16 random
# bytes in URL-safe base64 without padding), without a JVM start for
# `StorageTool random-uuid`; Kafka refuses ids that begin with "-".
cluster_id() {
  local id
  while :; do
    id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
    case "$id" in -*) ;; *) echo "$id" && return 0 ;; esac
  done
}

# write_config DIR PORT CPORT [SPORT USER PASSWORD] writes
# DIR/server.properties and DIR/log4j2.properties.
write_config() {
  local dir=$1 port=$2 cport=$3 sport=${4:-} user=${5:-} password=${6:-}
  local listeners="PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport"
  local advertised="PLAINTEXT://127.0.0.1:$port" map="PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
  if [ -n "$sport" ]; then
    listeners+=",SASL_PLAINTEXT://127.0.0.1:$sport"
    advertised+=",SASL_PLAINTEXT://127.0.0.1:$sport"
    map+=",SASL_PLAINTEXT:SASL_PLAINTEXT"
  fi
  cat > "$dir/server.properties" << EOF
# Written by scripts/kafka.sh start; rewritten at every start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
controller.listener.names=CONTROLLER
listeners=$listeners
advertised.listeners=$advertised
listener.security.protocol.map=$map
inter.broker.listener.name=PLAINTEXT
log.dirs=$dir/data

# One node: every replication factor and ISR is 1, internal topics included,
# or groups and transactions would wait for replicas that never come.
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# Few partitions for the internal topics: each is created on first use (the
# first group, the first transaction), and 50 of them take seconds here.
offsets.topic.num.partitions=3
transaction.state.log.num.partitions=3
share.coordinator.state.topic.num.partitions=3

# Tests create their topics with the partitions they want; a typo must fail.
auto.create.topics.enable=false
num.partitions=1
# Tests start a group and expect it to consume at once.
group.initial.rebalance.delay.ms=0
# A broker started again after a kill -9 cannot register until the
# controller (the same process, started again) has timed out the session of
# the killed one: 9 s by default, 4 here. Heartbeats every second keep a
# live broker 3 misses away from being fenced on a busy machine.
broker.session.timeout.ms=4000
broker.heartbeat.interval.ms=1000

# Small and cheap: 2 cores and shared memory. Segments roll at 8 MiB, and
# their indexes are preallocated at 1 MiB instead of 10; the log cleaner
# (compacted topics, e.g. Connect's) gets an 8 MiB buffer instead of 128.
# No fsync per message (Kafka's default): a killed server's writes are in
# the page cache, and tests do not cut the power.
log.segment.bytes=8388608
log.index.size.max.bytes=1048576
log.cleaner.dedupe.buffer.size=8388608
log.cleaner.threads=1
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
num.replica.fetchers=1
EOF
  if [ -n "$sport" ]; then
    # PLAIN checks the JAAS users below; SCRAM checks the credentials that
    # `format --add-scram` wrote into the cluster's metadata.
    cat >> "$dir/server.properties" << EOF

# SASL (--sasl): user $user by PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512.
listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$user="$password";
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
EOF
  fi
  # Kafka logs through log4j2. At warn the log holds problems only, plus
  # the server's start and shutdown lines.
  cat > "$dir/log4j2.properties" << EOF
rootLogger.level = $LOG_LEVEL
rootLogger.appenderRef.stdout.ref = stdout
appender.stdout.type = Console
appender.stdout.name = stdout
appender.stdout.layout.type = PatternLayout
appender.stdout.layout.pattern = %d{HH:mm:ss.SSS} %p [%c] %m%n%ex
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = info
EOF
}

# formatted DIR: DIR holds a formatted cluster.
formatted() { [ -f "$1/data/meta.properties" ]; }

start() {
  local port="" dir="" logfile="" owner="" sasl=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) port=${2:?--port needs a value}; shift 2 ;;
      --sasl) sasl=${2:?--sasl needs USER:PASSWORD}; shift 2 ;;
      --dir) dir=${2:?--dir needs a value}; shift 2 ;;
      --log) logfile=${2:?--log needs a value}; shift 2 ;;
      --owner) owner=${2:?--owner needs a value}; shift 2 ;;
      --port=* | --dir=* | --log=* | --owner=* | --sasl=*)
        local k=${1%%=*}
        set -- "$k" "${1#*=}" "${@:2}"
        ;;
      *) die "start: unknown option '$1' (see scripts/kafka.sh help)" ;;
    esac
  done
  [ -z "$port" ] || [[ "$port" =~ ^[0-9]+$ ]] || die "start: --port '$port' is not a number"
  [ -z "$owner" ] || kill -0 "$owner" 2> /dev/null || die "start: --owner $owner is not a running process"
  [ -z "$sasl" ] || [[ "$sasl" =~ ^[A-Za-z0-9._-]+:[A-Za-z0-9._-]+$ ]] ||
    die "start: --sasl wants USER:PASSWORD, both of [A-Za-z0-9._-]"
  dir=${dir:-$CACHE/default}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ -f "$dir/pid" ] && alive "$(cat "$dir/pid")"; then
    die "start: a server (pid $(cat "$dir/pid")) already runs on $dir (scripts/kafka.sh stop $(cat "$dir/pid"))"
  fi

  # The ports: given, else those of the last start on dir (a restart keeps
  # its address), else 9092 and a free one for the controller.
  local cport="" sport="" pick=0 last_port="" last_cport="" last_sport=""
  if [ -f "$dir/ports" ]; then
    read -r last_port last_cport last_sport < "$dir/ports" || true
  fi
  if [ -z "$port" ]; then
    port=${last_port:-9092}
  elif [ "$port" = 0 ]; then
    pick=1
    port=$(free_port)
  fi
  if [ -n "$last_cport" ] && [ "$last_cport" != "$port" ] && ! port_open "$last_cport"; then
    cport=$last_cport
  else
    cport=$(free_port)
  fi
  # SASL: given, else as the last start on dir had it.
  if [ -n "$sasl" ]; then
    (umask 077 && echo "$sasl" > "$dir/sasl")
  elif [ -f "$dir/sasl" ]; then
    sasl=$(cat "$dir/sasl")
  fi
  if [ -n "$sasl" ]; then
    if [ -n "$last_sport" ] && [ "$pick" = 0 ]; then
      sport=$last_sport
    else
      sport=$(free_port)
    fi
  fi
  local user=${sasl%%:*} password=${sasl#*:}
  # A server just killed may hold its port for a moment yet.
  local i p
  for p in $port $sport; do
    for i in $(seq 20); do
      port_open "$p" || break
      [ "$i" -lt 20 ] || die "start: port $p is already in use (another broker? scripts/kafka.sh stop all)"
      sleep 0.25
    done
  done

  assemble
  check_java
  if [ -n "$logfile" ]; then
    mkdir -p "$(dirname "$logfile")"
    logfile=$(cd "$(dirname "$logfile")" && pwd)/$(basename "$logfile")
  else
    logfile="$dir/kafka.log"
  fi
  local java
  java=$(java_bin)
  local opts=(-Xmx"${KAFKA_HEAP:-512m}" -Xms64m -XX:+UseG1GC -XX:MaxGCPauseMillis=20
    -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true "-Dlog4j2.configurationFile=$dir/log4j2.properties")
  # shellcheck disable=SC2206 # lists of words on purpose
  opts+=($(cds_opts broker) ${KAFKA_JAVA_OPTS:-})

  local t0 pid attempt from
  t0=$(date +%s)
  for attempt in 1 2 3; do
    write_config "$dir" "$port" "$cport" "$sport" "$user" "$password"
    if ! formatted "$dir"; then
      local id scram=()
      id=$(cluster_id)
      if [ -n "$sasl" ]; then
        scram=(--add-scram "SCRAM-SHA-256=[name=$user,password=$password]"
          --add-scram "SCRAM-SHA-512=[name=$user,password=$password]")
      fi
      log "formatting $dir (cluster $id)"
      "$java" -Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "-Dlog4j2.configurationFile=$dir/log4j2.properties" \
        -cp "$LIB/*" kafka.tools.StorageTool format -t "$id" -c "$dir/server.properties" "${scram[@]}" \
        > "$dir/format.log" 2>&1 || die "formatting $dir failed: $(tail -n 20 "$dir/format.log")"
    fi
    # The log keeps every run on DIR, one after the other (a restart's
    # test wants to see why the last run stopped); the wait looks at this
    # run's part only, from byte FROM. The server's stdin, stdout and
    # stderr are detached from the caller, or a Go test reading this
    # script's stdout would wait for the server to exit.
    echo "=== scripts/kafka.sh start $(date '+%F %T'): 127.0.0.1:$port, controller :$cport" >> "$logfile"
    from=$(($(stat -c %s "$logfile") + 1))
    "$java" "${opts[@]}" -cp "$LIB/*" kafka.Kafka "$dir/server.properties" < /dev/null >> "$logfile" 2>&1 &
    pid=$!
    register "$pid" "$dir"
    echo "$port $cport $sport" > "$dir/ports"
    log "starting a broker on 127.0.0.1:$port${sport:+ (SASL :$sport)} (controller :$cport), pid $pid, dir $dir, log $logfile"
    if wait_ready "$pid" "$port" "$logfile" "$t0" "$from"; then
      break
    fi
    forget "$pid" "$dir"
    if [ "$pick" = 1 ] && [ "$attempt" -lt 3 ] && grep -q 'Address already in use' "$logfile"; then
      log "port $port or $cport was taken meanwhile; trying others"
      port=$(free_port)
      cport=$(free_port)
      [ -z "$sport" ] || sport=$(free_port)
      continue
    fi
    echo "kafka: the broker did not start; the end of $logfile:" >&2
    tail -n 30 "$logfile" >&2
    exit 1
  done
  [ -z "$owner" ] || watch_owner "$owner" "$pid"
  log "broker pid $pid answers on 127.0.0.1:$port after $(($(date +%s) - t0))s"
  echo "$pid 127.0.0.1:$port${sport:+ 127.0.0.1:$sport}"
}

# wait_ready PID PORT LOG T0 FROM: 0 once the broker answers an admin call (it
# lists the topics), 1 if it exited or did not answer within START_TIMEOUT
# (then it is killed).
wait_ready() {
  local pid=$1 port=$2 logfile=$3 t0=$4 from=$5
  while :; do
    alive "$pid" || return 1
    if port_open "$port" && tail -c +"$from" "$logfile" | grep -q 'Kafka Server started'; then
      # The port opens before the broker has caught up with the metadata
      # log; the admin client waits for that (within its own timeout).
      if tool org.apache.kafka.tools.TopicCommand --bootstrap-server "127.0.0.1:$port" --list \
        > /dev/null 2>> "$logfile"; then
        return 0
      fi
    fi
    if [ $(($(date +%s) - t0)) -ge "$START_TIMEOUT" ]; then
      log "no answer from the broker within ${START_TIMEOUT}s"
      kill_wait "$pid"
      return 1
    fi
    sleep 0.2
  done
}

cmd=${1:-help}
shift || true
case "$cmd" in
  assemble) assemble ;;
  classpath)
    assemble
    echo "$LIB/*"
    ;;
  start) start "$@" ;;
  stop) stop "${1:-}" ;;
  produce)
    [ $# -ge 2 ] || die "produce: want BOOTSTRAP TOPIC [console producer args]"
    b=$1 topic=$2
    shift 2
    tool org.apache.kafka.tools.ConsoleProducer --bootstrap-server "$b" --topic "$topic" "$@"
    ;;
  topics)
    [ $# -ge 1 ] || die "topics: want BOOTSTRAP ARGS..."
    b=$1
    shift
    tool org.apache.kafka.tools.TopicCommand --bootstrap-server "$b" "$@"
    ;;
  offsets)
    [ $# -ge 1 ] || die "offsets: want BOOTSTRAP ARGS..."
    b=$1
    shift
    tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$b" "$@"
    ;;
  help | -h | --help) usage ;;
  *)
    usage >&2
    die "unknown command '$cmd'"
    ;;
esac
