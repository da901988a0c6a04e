# Shared setup for interop/run.sh and the interop/bench-*.sh benchmarks: pinned versions,
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

# Nessie's server (Iceberg REST at /iceberg) is the runner uber-jar from
# Maven Central. 0.99 is built for Java 21+, unlike Spark 3.5 (8/11/17): it
# runs on the first Java 21+ found (NESSIE_JAVA, else /usr/lib/jvm/*).
NESSIE_VERSION=0.99.0
NESSIE_ARTIFACT="org.projectnessie.nessie:nessie-quarkus:${NESSIE_VERSION}"

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${INTEROP_CACHE:-$ROOT/.cache/interop}
VENV="$CACHE/venv"
BIN="$CACHE/bin"
JAR="$CACHE/jars/iceberg-spark-runtime-3.5_2.12-${ICEBERG_VERSION}.jar"
NESSIE_JAR="$CACHE/jars/nessie-quarkus-${NESSIE_VERSION}-runner.jar"
# OUT is where a benchmark keeps each run's log and timing (measure) and the
# input it generates, across runs; bench_tools creates it.
OUT="$CACHE/bench"

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

# ensure_jar fetches the Iceberg Spark runtime from Maven Central.
ensure_jar() { fetch_maven "$ICEBERG_RUNTIME" "" "$JAR"; }

# ensure_nessie_jar fetches Nessie's runner jar (about 250 MB, once).
ensure_nessie_jar() { fetch_maven "$NESSIE_ARTIFACT" "-runner" "$NESSIE_JAR"; }

# fetch_maven GROUP:ARTIFACT:VERSION CLASSIFIER_SUFFIX DEST downloads a jar
# from Maven Central once and checks it against the published SHA-1.
fetch_maven() {
  local coords=$1 suffix=$2 dest=$3
  [ -s "$dest" ] && [ -s "$dest.sha1" ] && return
  local g a v path
  IFS=: read -r g a v <<< "$coords"
  path="$MAVEN_REPO/${g//.//}/$a/$v/$a-$v$suffix.jar"
  log "downloading $coords$suffix"
  mkdir -p "$(dirname "$dest")"
  curl -fsSL --retry 3 -o "$dest.part" "$path" &&
    curl -fsSL --retry 3 -o "$dest.sha1.part" "$path.sha1" ||
    { echo "interop: cannot download $path" >&2; return 1; }
  local want got
  want=$(cut -c1-40 < "$dest.sha1.part")
  got=$(sha1sum "$dest.part" | cut -c1-40)
  if [ "$want" != "$got" ]; then
    rm -f "$dest.part" "$dest.sha1.part"
    echo "interop: SHA-1 mismatch for $path (want $want, got $got)" >&2
    return 1
  fi
  mv "$dest.part" "$dest" && mv "$dest.sha1.part" "$dest.sha1"
}

# nessie_java prints a java binary of version 21 or newer, or fails.
nessie_java() {
  local j v
  for j in ${NESSIE_JAVA:-} ${JAVA_HOME:+$JAVA_HOME/bin/java} java /usr/lib/jvm/*/bin/java; do
    command -v "$j" > /dev/null 2>&1 || continue
    v=$("$j" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    if [ -n "$v" ] && [ "$v" -ge 21 ] 2> /dev/null; then
      echo "$j"
      return 0
    fi
  done
  return 1
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

# build_go builds the binaries under test in the configuration `make test`
# builds and tests in (the Makefile's CGO_ENABLED and GOFLAGS): they share its
# build cache, so they take seconds after the Go tests.
build_go() {
  mkdir -p "$BIN"
  (cd "$ROOT" && CGO_ENABLED=0 go build -trimpath -o "$BIN/" ./cmd/icebeam ./pipelines/taxi ./pipelines/clicks ./internal/cmd/taxigen \
    ./interop/goscan ./interop/fakegcs ./internal/cmd/evolvestream ./internal/cmd/smallfiles ./pipelines/maintain ./interop/goread ./pipelines/cdc ./pipelines/kafka)
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# start_catalog DIR: runs `icebeam serve` on a free loopback port with state in
# DIR, waits until /v1/config answers, and sets CATALOG_URI and CATALOG_PID.
# wait_up URL PID TRIES: polls URL every 0.1 s until it answers (0), the
# process PID exits or TRIES polls pass (1).
wait_up() {
  local url=$1 pid=$2 tries=$3
  for _ in $(seq "$tries"); do
    curl -fs -o /dev/null "$url" && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

start_catalog() {
  local dir=$1 port
  port=$(free_port)
  mkdir -p "$dir"
  "$BIN/icebeam" serve --addr "127.0.0.1:$port" --local_dir "$dir" > "$dir/serve.log" 2>&1 &
  CATALOG_PID=$!
  CATALOG_URI="http://127.0.0.1:$port"
  if wait_up "$CATALOG_URI/v1/config" "$CATALOG_PID" 300; then
    log "icebeam serve pid $CATALOG_PID at $CATALOG_URI (state in $dir)"
    return 0
  fi
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

# start_nessie DIR: starts fakegcs (bucket "warehouse") and Nessie with an
# in-memory version store and its warehouse on gs://warehouse/ in that
# emulator, both on free loopback ports; sets NESSIE_URI (the Iceberg REST
# base, .../iceberg), NESSIE_API (.../api/v2), GCS_URI and the pids. On
# failure it sets NESSIE_SKIP to why, for the Nessie checks to skip with.
start_nessie() {
  local dir=$1 java port mport
  mkdir -p "$dir"
  NESSIE_SKIP=
  if ! java=$(nessie_java); then
    NESSIE_SKIP="Nessie $NESSIE_VERSION needs Java 21+ (found none; set NESSIE_JAVA)"
    return 1
  fi
  ensure_nessie_jar || { NESSIE_SKIP="cannot download $NESSIE_ARTIFACT:runner from $MAVEN_REPO"; return 1; }
  "$BIN/fakegcs" --addr=127.0.0.1:0 --bucket=warehouse > "$dir/gcs.url" 2> "$dir/gcs.log" &
  GCS_PID=$!
  for _ in $(seq 100); do [ -s "$dir/gcs.url" ] && break; sleep 0.1; done
  GCS_URI=$(cat "$dir/gcs.url")
  [ -n "$GCS_URI" ] || { NESSIE_SKIP="fakegcs did not start (see $dir/gcs.log)"; return 1; }
  port=$(free_port)
  mport=$(free_port)
  "$java" -Xmx512m \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$mport" \
    -Dquarkus.otel.sdk.disabled=true \
    -Dnessie.version.store.type=IN_MEMORY \
    -Dnessie.catalog.default-warehouse=warehouse \
    -Dnessie.catalog.warehouses.warehouse.location=gs://warehouse/ \
    -Dnessie.catalog.service.gcs.default-options.host="$GCS_URI" \
    -Dnessie.catalog.service.gcs.default-options.auth-type=NONE \
    -Dnessie.catalog.service.gcs.default-options.project-id=interop \
    -jar "$NESSIE_JAR" > "$dir/nessie.log" 2>&1 &
  NESSIE_PID=$!
  NESSIE_URI="http://127.0.0.1:$port/iceberg"
  NESSIE_API="http://127.0.0.1:$port/api/v2"
  if wait_up "$NESSIE_API/config" "$NESSIE_PID" 600; then
    log "nessie $NESSIE_VERSION pid $NESSIE_PID at $NESSIE_URI, fakegcs pid $GCS_PID at $GCS_URI"
    return 0
  fi
  NESSIE_SKIP="Nessie did not answer on $NESSIE_API/config within 60s (log: $dir/nessie.log: $(grep -m1 -E 'Exception|ERROR' "$dir/nessie.log" | cut -c1-200))"
  return 1
}

stop_nessie() {
  local pid
  for pid in "${NESSIE_PID:-}" "${GCS_PID:-}"; do
    [ -n "$pid" ] || continue
    kill "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
  done
  NESSIE_PID= GCS_PID=
}

# bench_tools NAME [spark]: what a benchmark needs before its runs: it
# creates OUT, checks for /usr/bin/time (which times and sizes the runs),
# builds the Python venv and the Go binaries and, with spark, checks Java
# and fetches the Iceberg runtime jar. NAME (bench-spark, ...) heads its
# messages.
bench_tools() {
  BENCH=$1
  mkdir -p "$OUT"
  [ -x /usr/bin/time ] || { echo "$BENCH: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
  # Java first: a wrong one fails at once, not after the downloads.
  if [ "${2:-}" = spark ]; then check_java; fi
  ensure_python
  if [ "${2:-}" = spark ]; then ensure_jar; fi
  build_go
}

# bench_catalog starts `icebeam serve` with its state in a fresh WORK
# directory, both gone on exit. Separate from bench_tools so that input
# cached across runs is made first, with no catalog idling meanwhile.
bench_catalog() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/icebeam-$BENCH-XXXXXX")
  trap 'stop_catalog; rm -rf "$WORK"' EXIT
  start_catalog "$WORK/catalog"
}

# measure NAME CMD...: "wall_seconds peak_MiB" of one run; its output goes to $OUT/NAME.log.
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$@" > "$OUT/$name.log" 2>&1 \
    || { tail -30 "$OUT/$name.log" >&2; echo "$BENCH: $name failed (log $OUT/$name.log)" >&2; exit 1; }
  local wall kb
  read -r wall kb < "$OUT/$name.time"
  echo "$wall $((kb / 1024))"
}
