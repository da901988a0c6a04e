# shellcheck shell=bash
# The life of a server that one of the repo's scripts starts in the
# background (scripts/kafka.sh, scripts/postgres.sh, scripts/debezium.sh):
# each server is registered in $CACHE/run/PID (naming its directory, which
# holds a file pid), stopped by its PID, its directory or all at once, and
# watched, when started with --owner, so that it stops once its owner (a Go
# test binary) is gone. The sourcing script defines log and die, and sets:
#
#   CACHE            where run/ is
#   SERVICE          what the server is called in messages ("broker")
#   SERVICE_CMDLINE  a string of its /proc/PID/cmdline, so that a stale pid
#                    reused by another program is never signalled
#   SERVICE_SIGNALS  the signals of a clean stop, each given 30 s (default
#                    "TERM KILL")

# alive PID: PID runs. A zombie does not: a server whose parent (the
# script) has exited waits to be reaped by init, its ports free. But a
# JVM's main thread can be a zombie while its other threads still exit,
# their sockets still open: those count as running.
alive() {
  local st tasks
  st=$(cat "/proc/$1/stat" 2> /dev/null) || return 1
  st=${st##*) }
  [ "${st%% *}" != Z ] && return 0
  tasks=(/proc/"$1"/task/*)
  [ "${#tasks[@]}" -gt 1 ]
}

# port_open PORT: something accepts TCP connections on 127.0.0.1:PORT.
port_open() { (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }

# free_port prints a port nothing listens on, below Linux's ephemeral range
# (32768 and up) so that no outgoing connection is handed it meanwhile. A
# race with another start remains: the scripts retry once the server says
# so.
free_port() {
  local p
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 12000))
    if ! port_open "$p"; then
      echo "$p"
      return 0
    fi
  done
  die "no free port found between 20000 and 32000"
}

# kill_wait PID: each of SERVICE_SIGNALS in turn, up to 30 s each; returns
# once PID is gone, so that its ports are free again.
kill_wait() {
  local pid=$1 sig
  for sig in ${SERVICE_SIGNALS:-TERM KILL}; do
    kill -s "$sig" "$pid" 2> /dev/null || return 0
    for _ in $(seq 300); do
      alive "$pid" || return 0
      sleep 0.1
    done
    log "pid $pid did not stop within 30s of SIG$sig"
  done
}

# register PID DIR: PID is the server of DIR.
register() {
  echo "$1" > "$2/pid"
  mkdir -p "$CACHE/run"
  echo "$2" > "$CACHE/run/$1"
}

# forget PID DIR undoes register.
forget() {
  rm -f "$CACHE/run/$1"
  [ "$(cat "$2/pid" 2> /dev/null)" != "$1" ] || rm -f "$2/pid"
}

# watch_owner OWNER PID: in the background, stops PID once OWNER is gone,
# and forgets it once it is gone itself (killed, say).
watch_owner() {
  local owner=$1 pid=$2
  (
    while alive "$owner" && alive "$pid"; do sleep 1; done
    stop_pid "$pid"
  ) < /dev/null > /dev/null 2>&1 &
}

# stop_pid PID stops one server that the script started; one already gone
# (killed, or stopped by its owner's watchdog) is only forgotten.
stop_pid() {
  local pid=$1 dir
  if [ ! -f "$CACHE/run/$pid" ]; then
    alive "$pid" || {
      log "no $SERVICE with pid $pid"
      return 0
    }
    die "stop: pid $pid was not started by $0 (no $CACHE/run/$pid)"
  fi
  dir=$(cat "$CACHE/run/$pid")
  if alive "$pid" && grep -qa "$SERVICE_CMDLINE" "/proc/$pid/cmdline" 2> /dev/null; then
    kill_wait "$pid"
    log "stopped $SERVICE pid $pid ($dir)"
  fi
  forget "$pid" "$dir"
}

# stop PID|DIR|all
stop() {
  local what=${1:-}
  case "$what" in
    all)
      local f found=0
      for f in "$CACHE"/run/*; do
        [ -f "$f" ] || continue
        stop_pid "${f##*/}"
        found=1
      done
      [ "$found" = 1 ] || log "no $SERVICE running"
      ;;
    '') die "stop: want a PID, a DIR or all" ;;
    *[!0-9]*)
      [ -d "$what" ] || die "stop: '$what' is neither a PID nor a directory"
      if [ -f "$what/pid" ]; then
        stop_pid "$(cat "$what/pid")"
      else
        log "no $SERVICE running on $what"
      fi
      ;;
    *) stop_pid "$what" ;;
  esac
}
