#!/usr/bin/env bash
# Apache Iceberg's REST Compatibility Kit (RCK, Iceberg 1.10.1), assembled from
# Maven Central and run on this machine against a live Iceberg REST catalog
# server (e.g. `icebeam serve`).
#
#   scripts/rck.sh assemble                 # jars into .cache/rck/lib, once
#   scripts/rck.sh classpath                # prints the java classpath (lib/*)
#   scripts/rck.sh run URI [WAREHOUSE] [-- ConsoleLauncher args]
#
# run executes the kit's RESTCompatibilityKitCatalogTests and
# RESTCompatibilityKitViewCatalogTests (149 tests) with JUnit's ConsoleLauncher
# against the server at URI (e.g. http://127.0.0.1:8181/), as a client of it
# (rck.local=false: the kit starts no server of its own) that creates the
# namespaces it uses (rck.requires-namespace-create=true). It writes JUnit XML
# to RCK_REPORTS (TEST-junit-jupiter.xml) with the launcher's whole output
# beside it (console.log), prints the launcher's summary, the failed tests with
# their messages on one line each and "N passed, N failed, N skipped" per class
# and in all, and exits with the launcher's status: non-zero if any test (or a
# class's setup) failed. Tests the kit skips itself (assumptions about what the
# catalog supports) are skipped, not failed.
#
# Each run needs a fresh catalog: the kit's @BeforeAll refuses one that holds
# namespace ns or newdb, and every run leaves them behind (the kit purges them
# before each test, not after the last). Restart the server on a new state
# directory, or (icebeam serve) give each run a new WAREHOUSE.
#
# WAREHOUSE is the catalog property `warehouse`, sent as GET /v1/config?warehouse=.
# The kit's own default, rck_warehouse, is a relative path; without WAREHOUSE
# this script sends an empty one, so that the server uses its default
# warehouse. The client writes manifests itself, so the warehouse must be one
# this machine can write too (a file:// one or a local path).
#
# ConsoleLauncher args after -- are added to the launcher's, e.g.
#   -- --include-methodname '.*Rename.*'
#   -- --select-method org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests#testRenameTable
# A --select-* argument (or -c/-m) replaces the two default classes.
#
# Environment: RCK_CACHE (default .cache/rck), RCK_M2 (a private Maven local
# repository; default ~/.m2), RCK_REPORTS (default $RCK_CACHE/reports; old
# TEST-*.xml there are removed first), RCK_JAVA_OPTS (more -D catalog properties
# or kit switches, e.g. -Drck.supports-names-with-dot=true
# -Drck.supports-serverside-retry=false -Dcredential=id:secret), RCK_LOG_LEVEL
# (warn; info or debug show the Iceberg client's logs), JAVA_HOME. Variables
# CATALOG_* become catalog properties too (the kit's own convention:
# CATALOG_FOO_BAR__BAZ -> foo.bar-baz); every Java system property does.
#
# The jars come from scripts/rck/pom.xml (why those: see the comments there) via
# `mvn dependency:copy-dependencies`. A stamp holds the pom's sha256: a second
# run downloads and copies nothing, a changed pom re-assembles. Needs Java 11+
# and, for assembling, Maven 3.6.3+.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${RCK_CACHE:-$ROOT/.cache/rck}
LIB=$CACHE/lib
LOG_LEVEL=${RCK_LOG_LEVEL:-warn}

KIT_CLASSES=(
  org.apache.iceberg.rest.RESTCompatibilityKitCatalogTests
  org.apache.iceberg.rest.RESTCompatibilityKitViewCatalogTests
)

log() { printf '[rck %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { echo "rck: $*" >&2; exit 1; }

# java_bin, check_java, assemble_pom; they call log and die above. (Checked on
# its own; shellcheck -x follows it.)
# shellcheck source-path=SCRIPTDIR source=lib/maven.sh disable=SC1091
source "$ROOT/scripts/lib/maven.sh"
# Iceberg 1.10 needs Java 11 or newer.
java_require 11 "" "Iceberg 1.10's compatibility kit"

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'
}

# assemble copies scripts/rck/pom.xml's runtime dependencies into $LIB (which is
# assemble_pom's DIR/lib), once (see scripts/lib/maven.sh).
assemble() {
  assemble_pom "$ROOT/scripts/rck/pom.xml" "$CACHE" "${RCK_M2:-}" "the REST compatibility kit"
}

# report XML prints the failed tests (errors too), sorted, each with its
# message on one line (cut at 200 characters), then "N passed, N failed,
# N skipped" per kit class and in all, from the launcher's legacy JUnit XML.
report() {
  local out
  out=$(awk '
    function attr(s, name,   re, v) {
      re = " " name "=\"[^\"]*\""
      if (!match(s, re)) return ""
      v = substr(s, RSTART + length(name) + 3, RLENGTH - length(name) - 4)
      gsub(/&#[xX][aAdD];|&#1[03];|&#9;|&#[xX]9;/, " ", v)
      gsub(/&quot;/, "\"", v); gsub(/&apos;/, "\047", v); gsub(/&lt;/, "<", v)
      gsub(/&gt;/, ">", v); gsub(/&amp;/, "\\&", v)
      gsub(/[ \t]+/, " ", v); sub(/^ /, "", v); sub(/ $/, "", v)
      return v
    }
    function short(c) { sub(/.*\./, "", c); return c }
    function close_case() {
      if (cls == "") return
      if (!(cls in seen)) { seen[cls] = 1; order[++nc] = cls }
      if (state == "failed") { failed[cls]++; print "F\t" short(cls) "#" name ": " msg }
      else if (state == "skipped") skipped[cls]++
      else passed[cls]++
      cls = ""
    }
    /<testcase / {
      close_case()
      cls = attr($0, "classname"); name = attr($0, "name"); state = "passed"; msg = ""
      sub(/\(\)$/, "", name)
      if ($0 ~ /\/>[ \t]*$/) close_case()
      next
    }
    /<(failure|error)[ >\/]/ && cls != "" && state != "failed" {
      state = "failed"; msg = attr($0, "message")
      if (msg == "") msg = attr($0, "type")
      if (length(msg) > 200) msg = substr(msg, 1, 200) "..."
      next
    }
    /<skipped[ >\/]/ && cls != "" && state == "passed" { state = "skipped"; next }
    /<\/testcase>/ { close_case() }
    END {
      close_case()
      for (i = 1; i <= nc; i++) {
        c = order[i]
        printf "C\t%s: %d passed, %d failed, %d skipped\n", short(c), passed[c], failed[c], skipped[c]
        tp += passed[c]; tf += failed[c]; ts += skipped[c]
      }
      printf "T\trck: %d passed, %d failed, %d skipped\n", tp, tf, ts
    }
  ' "$1")
  local nf
  nf=$(grep -c $'^F\t' <<< "$out" || true)
  if [ "$nf" -gt 0 ]; then
    echo "Failed tests ($nf):"
    grep $'^F\t' <<< "$out" | cut -f2- | LC_ALL=C sort | sed 's/^/  /'
  fi
  grep $'^C\t' <<< "$out" | cut -f2- | LC_ALL=C sort
  grep $'^T\t' <<< "$out" | cut -f2-
}

run() {
  local uri=${1:-} warehouse="" have_wh=0
  [ -n "$uri" ] || die "run: want the catalog's URI, e.g. scripts/rck.sh run http://127.0.0.1:8181/"
  case "$uri" in
    http://* | https://*) ;;
    *) die "run: URI '$uri' is not an http:// or https:// URL" ;;
  esac
  shift
  if [ $# -gt 0 ] && [ "$1" != -- ]; then
    warehouse=$1
    have_wh=1
    shift
  fi
  local extra=()
  if [ $# -gt 0 ]; then
    [ "$1" = -- ] || die "run: unexpected argument '$1' (launcher arguments go after --)"
    shift
    extra=("$@")
  fi

  # Fail early, and clearly, when nothing answers at URI (any HTTP status,
  # 401 included, is an answer).
  if command -v curl > /dev/null 2>&1; then
    local code
    code=$(curl -s -o /dev/null -m 10 -w '%{http_code}' "${uri%/}/v1/config" 2> /dev/null || true)
    if [ -z "$code" ] || [ "$code" = 000 ]; then
      die "run: nothing answers at ${uri%/}/v1/config (is the catalog server running?)"
    fi
  fi

  assemble
  check_java
  local java reports selectors=() a
  java=$(java_bin)
  reports=${RCK_REPORTS:-$CACHE/reports}
  mkdir -p "$reports"
  reports=$(cd "$reports" && pwd)
  rm -f "$reports"/TEST-*.xml "$reports"/console.log

  selectors=()
  for a in "${KIT_CLASSES[@]}"; do selectors+=(--select-class "$a"); done
  for a in ${extra[@]+"${extra[@]}"}; do
    case "$a" in
      --select* | -c | -m) selectors=() ;;
    esac
  done

  # RCKUtils turns every system property into a catalog property (and the
  # kit's switches are read from there); rck.local is a JUnit configuration
  # parameter, which falls back to system properties too.
  local props=(
    -Drck.local=false
    -Drck.requires-namespace-create=true
    "-Duri=$uri"
    "-Dwarehouse=$warehouse"
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=$LOG_LEVEL"
    -Dorg.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader=error
    -Dorg.slf4j.simpleLogger.showDateTime=true
    -Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS
  )
  local opts=()
  # shellcheck disable=SC2206 # RCK_JAVA_OPTS is a list of words on purpose
  [ -z "${RCK_JAVA_OPTS:-}" ] || opts=(${RCK_JAVA_OPTS})

  if [ "$have_wh" = 1 ]; then
    log "running the REST compatibility kit against $uri (warehouse $warehouse); output in $reports/console.log"
  else
    log "running the REST compatibility kit against $uri (the server's default warehouse); output in $reports/console.log"
  fi
  local rc=0 t0
  t0=$(date +%s)
  "$java" "${props[@]}" ${opts[@]+"${opts[@]}"} -cp "$LIB/*" org.junit.platform.console.ConsoleLauncher \
    execute --disable-banner --disable-ansi-colors --details=tree --fail-if-no-tests \
    --include-engine=junit-jupiter \
    --reports-dir "$reports" ${selectors[@]+"${selectors[@]}"} ${extra[@]+"${extra[@]}"} \
    < /dev/null > "$reports/console.log" 2>&1 || rc=$?
  log "the kit ran for $(($(date +%s) - t0))s, launcher exit status $rc"

  # The launcher's own summary: from "Test run finished" to the end.
  if grep -q 'Test run finished' "$reports/console.log"; then
    sed -n '/Test run finished/,$p' "$reports/console.log" | grep -v '^\s*$'
  else
    echo "rck: the launcher printed no summary; the end of $reports/console.log:" >&2
    tail -n 30 "$reports/console.log" >&2
  fi
  local xml="$reports/TEST-junit-jupiter.xml"
  if [ -f "$xml" ]; then
    report "$xml"
    # The kit's @BeforeAll refuses a catalog that already holds its test
    # namespaces (so that it never purges someone's data); a failed run
    # leaves them behind.
    if grep -q 'Namespaces list should not contain' "$xml"; then
      echo "rck: the catalog already holds namespace ns or newdb (left by an earlier run?), so the kit ran" \
        "no test of that class; run it against a fresh catalog (a new state directory) or drop them" >&2
    fi
  else
    echo "rck: no JUnit XML report in $reports" >&2
    [ "$rc" != 0 ] || rc=1
  fi
  return "$rc"
}

cmd=${1:-help}
shift || true
case "$cmd" in
  assemble) assemble ;;
  classpath)
    assemble
    echo "$LIB/*"
    ;;
  run) run "$@" ;;
  help | -h | --help) usage ;;
  *)
    usage >&2
    die "unknown command '$cmd'"
    ;;
esac
