# shellcheck shell=bash
# The catalog the benchmark scripts run against: sourced by
# scripts/bench-clicks.sh and scripts/bench-taxi.sh, and by scripts/lib/bench.sh.
#
#   start_serve ICEBEAM LOCAL_DIR LOG [WRAPPER...]
#                 starts `ICEBEAM serve` on a free loopback port with its
#                 state in LOCAL_DIR, logging to LOG, run by WRAPPER if given
#                 (/usr/bin/time -v -o FILE, say); sets SERVE_PID and
#                 SERVE_URI once it answers, or prints the log and exits 1.
#                 The caller stops it (kill "$SERVE_PID").

start_serve() {
  local bin=$1 dir=$2 log=$3
  shift 3
  : > "$log" # here, not only in the background job, which the loop below may overtake
  "$@" "$bin" serve --addr=127.0.0.1:0 --local_dir="$dir" > "$log" 2>&1 &
  # shellcheck disable=SC2034 # read by the caller
  SERVE_PID=$!
  SERVE_URI=
  for _ in $(seq 100); do
    SERVE_URI=$(sed -n 's/^icebeam: serving the Iceberg REST catalog at //p' "$log")
    [ -n "$SERVE_URI" ] && return 0
    sleep 0.1
  done
  cat "$log"
  echo "icebeam serve did not start" >&2
  exit 1
}
