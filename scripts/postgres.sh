#!/usr/bin/env bash
# A PostgreSQL server (Debian's package, 15 here) run on loopback from a
# directory of its own, ready for logical replication: the database side of
# the Debezium tests (scripts/debezium.sh), and for people.
#
#   scripts/postgres.sh start [options]  # prints "PID 127.0.0.1:PORT" once it accepts connections
#   scripts/postgres.sh stop PID|DIR|all # a fast shutdown (SIGINT), data kept
#   scripts/postgres.sh kill PID|DIR     # a crash: SIGKILL to the server and all its
#                                        # processes at once; the next start recovers
#                                        # from the WAL
#   scripts/postgres.sh psql ADDR|DIR [psql args]
#                                        # psql as the superuser postgres on the server at
#                                        # ADDR (127.0.0.1:PORT) or of DIR, database postgres
#                                        # unless args name one (-d NAME); stops at the
#                                        # first error (ON_ERROR_STOP), reads no ~/.psqlrc
#   scripts/postgres.sh bin              # prints the folder of PostgreSQL's programs
#
# start options:
#   --port N     the server's port (default: the last start's on DIR, else
#                5432); 0 picks a free one (tests: read the address printed)
#   --dir DIR    the server's directory (default .cache/postgres/default): the
#                cluster in DIR/data, created by initdb if DIR holds none, its
#                log DIR/postgres.log (every run, one after the other), its
#                settings DIR/data/icebeam.conf (rewritten at every start) and,
#                when DIR's path is short enough, its Unix socket
#   --owner PID  stop the server when process PID exits (for tests that may die)
#
# The cluster: superuser postgres, no password (trust) from 127.0.0.1 and
# the Unix socket only, which is all it listens on; UTF8, locale C.UTF-8,
# time zone UTC; wal_level=logical with room for 10 replication slots and
# WAL senders, for Debezium's pgoutput. Built for tests, not for keeping
# data: fsync, full-page writes and synchronous commit are off (a crash of
# the machine may lose or corrupt it; a kill -9 of the server does not).
#
# PostgreSQL refuses to run as root: run as root, this script runs initdb and
# the server as the user postgres (setpriv), owner of DIR/data, and gives
# "others" traverse (x) permission on the folders above DIR that lack it.
# Without PostgreSQL's programs, it installs Debian's postgresql package
# (apt-get, as root) or says what to install.
#
# Environment: PG_BIN (the folder of initdb, postgres, pg_isready; default
# the newest /usr/lib/postgresql/*/bin), PG_CACHE (default .cache/postgres),
# PG_START_TIMEOUT (seconds, default 60).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${PG_CACHE:-$ROOT/.cache/postgres}
START_TIMEOUT=${PG_START_TIMEOUT:-60}
# The run user when we are root; initdb and postgres refuse root.
PG_USER=postgres

log() { printf '[postgres %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  echo "postgres: $*" >&2
  exit 1
}

# shellcheck source-path=SCRIPTDIR source=lib/service.sh disable=SC1091
source "$ROOT/scripts/lib/service.sh"
SERVICE=server
SERVICE_CMDLINE=postgres
# A fast shutdown (SIGINT: clients, Debezium's replication connection
# among them, are disconnected; SIGTERM would wait for them), then an
# immediate one (recovered at the next start), then a kill.
SERVICE_SIGNALS="INT QUIT KILL"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

# find_bin prints the folder of PostgreSQL's server programs, if any.
find_bin() {
  if [ -n "${PG_BIN:-}" ]; then
    [ -x "$PG_BIN/postgres" ] && echo "$PG_BIN"
    return 0
  fi
  local d
  # Newest major version first: /usr/lib/postgresql/15/bin, 16/bin, ...
  for d in $(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2> /dev/null | sort -t/ -k5,5nr); do
    if [ -x "$d/postgres" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_isready" ]; then
      echo "$d"
      return 0
    fi
  done
}

# pg_bin prints that folder, installing Debian's postgresql package first if
# there is none (it puts the programs under /usr/lib/postgresql/N/bin, off
# PATH: only wrappers are on PATH).
pg_bin() {
  local bin
  bin=$(find_bin)
  if [ -z "$bin" ] && [ -z "${PG_BIN:-}" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null 2>&1; then
      log "PostgreSQL's programs are missing: installing Debian's postgresql package"
      apt-get update -qq >&2 || die "apt-get update failed"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql > /dev/null ||
        die "apt-get install postgresql failed"
      bin=$(find_bin)
    fi
  fi
  [ -n "$bin" ] || die "PostgreSQL's programs (postgres, initdb, pg_isready) not found in ${PG_BIN:-/usr/lib/postgresql/*/bin}:
install Debian's postgresql package (apt-get install postgresql) or set PG_BIN"
  echo "$bin"
}

# as_pg CMD...: runs CMD as the server's user: postgres when we are root,
# else ourselves.
as_pg() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid="$PG_USER" --regid="$PG_USER" --clear-groups -- "$@"
  else
    "$@"
  fi
}

# let_pg_reach DIR gives the server's user traverse permission on DIR and
# every folder above it, where it lacks it (go test's temporary folders are
# 0700 root): it must reach DIR/data, and the socket and log in DIR.
let_pg_reach() {
  local d=$1
  [ "$(id -u)" = 0 ] || return 0
  as_pg test -x "$d" 2> /dev/null && return 0
  while [ "$d" != / ]; do
    if ! as_pg test -x "$d" 2> /dev/null; then
      log "letting $PG_USER traverse $d (chmod o+x)"
      chmod o+x "$d"
    fi
    d=$(dirname "$d")
  done
}

# init_cluster BIN DIR: initdb into DIR/data, then the access rules.
init_cluster() {
  local bin=$1 dir=$2 data=$2/data
  rm -rf "$data"
  mkdir -p "$data"
  chmod 700 "$data"
  [ "$(id -u)" != 0 ] || chown "$PG_USER:$PG_USER" "$data"
  log "initdb $data"
  # --no-sync: a test's cluster need not survive the machine's crash, and
  # syncing every file of a new cluster takes seconds on a busy disk.
  if ! as_pg "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    --no-sync --no-instructions > "$dir/initdb.log" 2>&1; then
    die "initdb failed; $dir/initdb.log:
$(tail -n 20 "$dir/initdb.log")"
  fi
  # Loopback and the socket only, and replication connections (Debezium's)
  # from loopback; nothing else reaches the server.
  cat > "$data/pg_hba.conf" << 'EOF'
# Written by scripts/postgres.sh: trust on loopback and the Unix socket only.
local   all          all                 trust
local   replication  all                 trust
host    all          all   127.0.0.1/32  trust
host    replication  all   127.0.0.1/32  trust
EOF
  echo "include_if_exists = 'icebeam.conf'" >> "$data/postgresql.conf"
}

# write_config DIR PORT SOCKDIR writes DIR/data/icebeam.conf.
write_config() {
  local dir=$1 port=$2 sockdir=$3
  cat > "$dir/data/icebeam.conf.$$" << EOF
# Written by scripts/postgres.sh start; rewritten at every start.
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$sockdir'
timezone = 'UTC'
log_timezone = 'UTC'

# Logical decoding for Debezium (pgoutput): a slot and a WAL sender per
# connector, with room for several connectors and restarts.
wal_level = logical
max_replication_slots = 10
max_wal_senders = 10
# A killed connector's slot lingers until the server notices; do not let it
# hold WAL forever in a long test run.
wal_sender_timeout = 30s

# A test server: speed over durability.
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 50
shared_buffers = 32MB
max_wal_size = 256MB

log_line_prefix = '%m [%p] %q%u@%d '
log_min_messages = warning
log_connections = off
EOF
  mv "$dir/data/icebeam.conf.$$" "$dir/data/icebeam.conf"
}

initialized() { [ -f "$1/data/PG_VERSION" ]; }

start() {
  local port="" dir="" owner=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) port=${2:?--port needs a value}; shift 2 ;;
      --dir) dir=${2:?--dir needs a value}; shift 2 ;;
      --owner) owner=${2:?--owner needs a value}; shift 2 ;;
      --port=* | --dir=* | --owner=*)
        local k=${1%%=*}
        set -- "$k" "${1#*=}" "${@:2}"
        ;;
      *) die "start: unknown option '$1' (see scripts/postgres.sh help)" ;;
    esac
  done
  [ -z "$port" ] || [[ "$port" =~ ^[0-9]+$ ]] || die "start: --port '$port' is not a number"
  [ -z "$owner" ] || kill -0 "$owner" 2> /dev/null || die "start: --owner $owner is not a running process"
  dir=${dir:-$CACHE/default}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ -f "$dir/pid" ] && alive "$(cat "$dir/pid")"; then
    die "start: a server (pid $(cat "$dir/pid")) already runs on $dir (scripts/postgres.sh stop $(cat "$dir/pid"))"
  fi
  local bin
  bin=$(pg_bin)
  let_pg_reach "$dir"
  [ "$(id -u)" != 0 ] || chown "$PG_USER:$PG_USER" "$dir"

  local pick=0 last_port=""
  [ ! -f "$dir/port" ] || last_port=$(cat "$dir/port")
  if [ -z "$port" ]; then
    port=${last_port:-5432}
  elif [ "$port" = 0 ]; then
    pick=1
    port=$(free_port)
  fi
  # A Unix socket's path is at most 107 bytes: under a long DIR (a test's
  # temporary folder), the server listens on TCP only.
  local sockdir=$dir
  if [ $((${#dir} + 20)) -gt 107 ]; then
    log "no Unix socket: $dir is too long a path for one"
    sockdir=""
  fi

  initialized "$dir" || init_cluster "$bin" "$dir"
  local logfile=$dir/postgres.log
  touch "$logfile"
  [ "$(id -u)" != 0 ] || chown "$PG_USER:$PG_USER" "$logfile"
  # A killed server leaves its lock file, which postgres ignores once no
  # process has that pid; but a killed postmaster stays a zombie until
  # init reaps it, and postgres takes that for a running server.
  # So with the Unix socket's lock file.
  local lock old
  for lock in "$dir/data/postmaster.pid" "$dir"/.s.PGSQL.*.lock; do
    [ -f "$lock" ] || continue
    old=$(head -n 1 "$lock" 2> /dev/null || true)
    if [ -n "$old" ] && ! alive "$old"; then
      rm -f "$lock"
    fi
  done
  local t0 pid attempt from
  t0=$(date +%s)
  for attempt in 1 2 3; do
    write_config "$dir" "$port" "$sockdir"
    echo "=== scripts/postgres.sh start $(date '+%F %T'): 127.0.0.1:$port" >> "$logfile"
    from=$(($(stat -c %s "$logfile") + 1))
    # Detached from the caller's stdin and stdout, or a Go test reading this
    # script's output would wait for the server to exit. Not through as_pg:
    # a function run in the background is a subshell whose child is the
    # server, and the pid we signal must be the server's (setpriv execs).
    if [ "$(id -u)" = 0 ]; then
      setpriv --reuid="$PG_USER" --regid="$PG_USER" --clear-groups -- \
        "$bin/postgres" -D "$dir/data" < /dev/null >> "$logfile" 2>&1 &
    else
      "$bin/postgres" -D "$dir/data" < /dev/null >> "$logfile" 2>&1 &
    fi
    pid=$!
    register "$pid" "$dir"
    echo "$port" > "$dir/port"
    log "starting PostgreSQL ($bin) on 127.0.0.1:$port, pid $pid, dir $dir"
    if wait_ready "$bin" "$pid" "$port" "$logfile" "$t0"; then
      break
    fi
    forget "$pid" "$dir"
    if [ "$pick" = 1 ] && [ "$attempt" -lt 3 ] && tail -c +"$from" "$logfile" | grep -q 'could not bind'; then
      log "port $port was taken meanwhile; trying another"
      port=$(free_port)
      continue
    fi
    echo "postgres: the server did not start; the end of $logfile:" >&2
    tail -n 30 "$logfile" >&2
    exit 1
  done
  [ -z "$owner" ] || watch_owner "$owner" "$pid"
  log "PostgreSQL pid $pid accepts connections on 127.0.0.1:$port after $(($(date +%s) - t0))s"
  echo "$pid 127.0.0.1:$port"
}

# wait_ready BIN PID PORT LOG T0: 0 once the server accepts connections, 1 if
# it exited or did not within START_TIMEOUT (then it is killed).
wait_ready() {
  local bin=$1 pid=$2 port=$3 logfile=$4 t0=$5
  while :; do
    alive "$pid" || return 1
    if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t 2 2> /dev/null; then
      return 0
    fi
    if [ $(($(date +%s) - t0)) -ge "$START_TIMEOUT" ]; then
      log "no answer from the server within ${START_TIMEOUT}s"
      kill_wait "$pid"
      return 1
    fi
    sleep 0.1
  done
}

# crash PID kills server PID and its processes with SIGKILL, as a crash
# would (killing the postmaster alone leaves its backends to notice and
# exit, holding its shared memory meanwhile, and the next start refuses
# to run), and forgets it once they are all gone.
crash() {
  local pid=$1 kids dir
  [ -f "$CACHE/run/$pid" ] || die "kill: pid $pid was not started by scripts/postgres.sh (no $CACHE/run/$pid)"
  dir=$(cat "$CACHE/run/$pid")
  if alive "$pid"; then
    kids=$(ps -o pid= --ppid "$pid" || true)
    # shellcheck disable=SC2086 # a list of pids
    kill -9 "$pid" $kids 2> /dev/null || true
    local k
    for k in $pid $kids; do
      for _ in $(seq 100); do
        alive "$k" || break
        sleep 0.05
      done
    done
    log "killed PostgreSQL pid $pid ($dir)"
  fi
  forget "$pid" "$dir"
}

# pid_of PID|DIR prints the pid of the server named.
pid_of() {
  local what=$1
  case "$what" in
    '') die "want a PID or a DIR" ;;
    *[!0-9]*)
      [ -d "$what" ] || die "'$what' is neither a PID nor a directory"
      cat "$what/pid" 2> /dev/null || true
      ;;
    *) echo "$what" ;;
  esac
}

# run_psql ADDR|DIR ARGS...
run_psql() {
  local where=${1:?psql: want ADDR (127.0.0.1:PORT) or DIR} port
  shift
  if [[ "$where" =~ ^[0-9.]+:[0-9]+$ ]]; then
    port=${where##*:}
  elif [ -f "$where/port" ]; then
    port=$(cat "$where/port")
  else
    die "psql: '$where' is neither 127.0.0.1:PORT nor a server's directory"
  fi
  local bin
  bin=$(pg_bin)
  PGCONNECT_TIMEOUT=10 "$bin/psql" -X -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres "$@"
}

cmd=${1:-help}
shift || true
case "$cmd" in
  start) start "$@" ;;
  stop) stop "${1:-}" ;;
  kill)
    pid=$(pid_of "${1:-}")
    if [ -n "$pid" ]; then crash "$pid"; else log "no server running on $1"; fi
    ;;
  psql) run_psql "$@" ;;
  bin) pg_bin ;;
  help | -h | --help) usage ;;
  *)
    usage >&2
    die "unknown command '$cmd'"
    ;;
esac
