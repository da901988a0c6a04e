# Shared setup for interop/run.sh and interop/bench-spark.sh: pinned versions,
# the cached Python venv and Iceberg runtime jar, Go binaries, and the
# standalone catalog server. Source it; it defines functions and variables only.
#
# Everything lands in .cache/interop/ (git-ignored; INTEROP_CACHE moves it). A second run downloads
# nothing: the venv is rebuilt only when interop/requirements.txt (pyspark
# 3.5.9, pyiceberg 0.12.0, pytest and their dependencies, all pinned) changes,
# and the jar is kept once its SHA-1 matched Maven Central's.

# The Iceberg runtime must match pyspark's Spark (3.5) and Scala (2.12) lines.
ICEBERG_VERSION=1.10.1
ICEBERG_RUNTIME="org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:${ICEBERG_VERSION}"
MAVEN_REPO=${MAVEN_REPO:-https://repo.maven.apache.org/maven2}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${INTEROP_CACHE:-$ROOT/.cache/interop}
VENV="$CACHE/venv"
BIN="$CACHE/bin"
JAR="$CACHE/jars/iceberg-spark-runtime-3.5_2.12-${ICEBERG_VERSION}.jar"

log() { printf '[interop %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# ensure_python builds the venv once per version of requirements.txt.
ensure_python() {
  local want
  want=$(sha256sum < "$ROOT/interop/requirements.txt")
  if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/.requirements" 2>/dev/null)" = "$want" ]; then
    return
  fi
  log "creating Python venv in $VENV from interop/requirements.txt"
  rm -rf "$VENV"
  python3 -m venv "$VENV" &&
    "$VENV/bin/pip" install --quiet -r "$ROOT/interop/requirements.txt" &&
    printf '%s\n' "$want" > "$VENV/.requirements"
}

# ensure_jar fetches the Iceberg Spark runtime from Maven Central and checks
# it against the repository's published SHA-1.
ensure_jar() {
  [ -s "$JAR" ] && [ -s "$JAR.sha1" ] && return
  local g a v path
  IFS=: read -r g a v <<< "$ICEBERG_RUNTIME"
  path="$MAVEN_REPO/${g//.//}/$a/$v/$a-$v.jar"
  log "downloading $ICEBERG_RUNTIME"
  mkdir -p "$(dirname "$JAR")"
  curl -fsSL --retry 3 -o "$JAR.part" "$path" &&
    curl -fsSL --retry 3 -o "$JAR.sha1.part" "$path.sha1" ||
    { echo "interop: cannot download $path" >&2; return 1; }
  local want got
  want=$(cut -c1-40 < "$JAR.sha1.part")
  got=$(sha1sum "$JAR.part" | cut -c1-40)
  if [ "$want" != "$got" ]; then
    rm -f "$JAR.part" "$JAR.sha1.part"
    echo "interop: SHA-1 mismatch for $path (want $want, got $got)" >&2
    return 1
  fi
  mv "$JAR.part" "$JAR" && mv "$JAR.sha1.part" "$JAR.sha1"
}

# check_java fails early with a clear message: Spark 3.5 runs on Java 8, 11 or 17.
check_java() {
  local v
  v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  case "$v" in
    1|8|11|17) ;;
    *) echo "interop: Spark 3.5 needs Java 8, 11 or 17 (found '${v:-none}'); set JAVA_HOME" >&2; return 1 ;;
  esac
}

# build_go builds the binaries under test. Plain `go build` flags on purpose:
# they share the build cache with `go test`, so reruns take seconds.
build_go() {
  mkdir -p "$BIN"
  (cd "$ROOT" && go build -o "$BIN/" ./cmd/icebeam ./pipelines/taxi ./internal/cmd/taxigen ./interop/goscan)
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# start_catalog DIR: runs `icebeam serve` on a free loopback port with state in
# DIR, waits until /v1/config answers, and sets CATALOG_URI and CATALOG_PID.
start_catalog() {
  local dir=$1 port
  port=$(free_port)
  mkdir -p "$dir"
  "$BIN/icebeam" serve --addr "127.0.0.1:$port" --local_dir "$dir" > "$dir/serve.log" 2>&1 &
  CATALOG_PID=$!
  CATALOG_URI="http://127.0.0.1:$port"
  for _ in $(seq 300); do
    if curl -fs -o /dev/null "$CATALOG_URI/v1/config"; then
      log "icebeam serve pid $CATALOG_PID at $CATALOG_URI (state in $dir)"
      return 0
    fi
    kill -0 "$CATALOG_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "interop: icebeam serve did not come up on $CATALOG_URI; its log:" >&2
  cat "$dir/serve.log" >&2
  return 1
}

stop_catalog() {
  [ -n "${CATALOG_PID:-}" ] || return 0
  kill "$CATALOG_PID" 2>/dev/null || true
  wait "$CATALOG_PID" 2>/dev/null || true
  CATALOG_PID=
}
