#!/usr/bin/env bash
# phase.sh NAME COMMAND...: runs one phase of `make test`, announcing it and
# reporting how long it took, so a long silent step says what it is.
name=$1
shift
start=$(date +%s)
echo "== make test: $name (started $(date +%H:%M:%S))"
"$@"
rc=$?
took=$(($(date +%s) - start))
if [ "$rc" -eq 0 ]; then
  echo "== make test: $name done in $((took / 60))m$((took % 60))s"
else
  echo "== make test: $name FAILED after $((took / 60))m$((took % 60))s"
fi
exit "$rc"
