# shellcheck shell=bash
# Java jars assembled from Maven Central, and the java to run them with:
# sourced by scripts/jobserver.sh (Beam's Flink and Spark job servers) and
# scripts/rck.sh (Iceberg's REST compatibility kit).
#
#   java_require MIN MAX_TESTED WHAT
#                                  the Java the jars need: MIN or newer (e.g. 11);
#                                  MAX_TESTED the newest tested, or "" for no limit;
#                                  WHAT needs it, for messages (e.g. "the Flink 1.19
#                                  and Spark 3.5 job servers"). Call it once, after
#                                  sourcing.
#   java_bin                       prints the java to run: $JAVA_HOME/bin/java, else
#                                  java on PATH
#   check_java                     fails unless that java is MIN or newer; warns
#                                  above MAX_TESTED
#   assemble_pom POM DIR M2 WHAT   copies POM's runtime dependencies into DIR/lib, once
#   build_lock DIR WANT FILE       for a build of FILE kept once per WANT (a hash of its
#                                  inputs): 0 when FILE exists and DIR/.stamp holds WANT;
#                                  else 1, holding DIR/.lock (fd 9), so that parallel
#                                  callers (go test's packages) build once: the one that
#                                  builds ends with build_done DIR WANT
#   build_done DIR WANT            records WANT in DIR/.stamp and releases the lock
#
# Messages go through log MESSAGE (progress, to stderr) and die MESSAGE (to
# stderr, then exit 1), which the sourcing script defines: they carry its name.
#
# assemble_pom runs `mvn dependency:copy-dependencies` (Maven 3.6.3+) on a copy
# of POM in DIR (so that nothing, target/ say, lands beside POM), into
# DIR/lib.part, then swaps that for DIR/lib. DIR/.stamp holds POM's sha256: a
# second call downloads and copies nothing, a changed POM re-assembles. A lock
# (DIR/.lock, flock) keeps parallel callers (go test runs packages in parallel)
# from assembling twice. M2 is a private Maven local repository (empty: ~/.m2);
# WHAT names the result in messages, e.g. "the flink job server". Maven's output
# goes to DIR/mvn.log, whose end is shown if it fails.

# The repository's root: POMs under it are named relative to it in messages.
MAVEN_SH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

java_require() {
  MAVEN_SH_JAVA_MIN=$1 MAVEN_SH_JAVA_MAX_TESTED=$2 MAVEN_SH_JAVA_FOR=$3
}

# java_range prints the Java versions wanted, e.g. "11 or 17" or "11 or newer".
java_range() { echo "$MAVEN_SH_JAVA_MIN or ${MAVEN_SH_JAVA_MAX_TESTED:-newer}"; }

java_bin() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    echo "$JAVA_HOME/bin/java"
  elif command -v java > /dev/null 2>&1; then
    command -v java
  else
    die "java not found: install a JDK $(java_range) (apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
  fi
}

check_java() {
  local j v
  j=$(java_bin) || exit 1
  v=$("$j" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  if [ -z "$v" ] || [ "$v" -lt "$MAVEN_SH_JAVA_MIN" ] 2> /dev/null; then
    die "need Java $(java_range) for $MAVEN_SH_JAVA_FOR (found '${v:-none}'); set JAVA_HOME"
  fi
  if [ -n "${MAVEN_SH_JAVA_MAX_TESTED:-}" ] && [ "$v" -gt "$MAVEN_SH_JAVA_MAX_TESTED" ]; then
    log "warning: Java $v; $MAVEN_SH_JAVA_FOR: tested on Java $MAVEN_SH_JAVA_MIN and $MAVEN_SH_JAVA_MAX_TESTED only"
  fi
  return 0
}

built() { [ -e "$3" ] && [ "$(cat "$1/.stamp" 2> /dev/null)" = "$2" ]; }

build_lock() {
  built "$@" && return 0
  mkdir -p "$1"
  if command -v flock > /dev/null 2>&1; then
    exec 9> "$1/.lock"
    flock 9
    # Another process may have finished it while we waited.
    if built "$@"; then
      exec 9>&-
      return 0
    fi
  fi
  return 1
}

build_done() {
  printf '%s\n' "$2" > "$1/.stamp"
  # Not `exec 9>&- 2> /dev/null`: exec's redirections last, and that one
  # silenced the caller's stderr for the rest of its run.
  exec 9>&-
}

assemble_pom() {
  local pom=$1 dir=$2 m2=$3 what=$4
  local lib="$dir/lib" name want
  [ -f "$pom" ] || die "missing $pom"
  name=${pom#"$MAVEN_SH_ROOT/"}
  want=$(sha256sum < "$pom" | cut -d' ' -f1)
  build_lock "$dir" "$want" "$lib" && return 0
  command -v mvn > /dev/null 2>&1 ||
    die "mvn not found: assembling $what needs Maven 3.6.3+ (apt-get install maven)"
  check_java
  local t0 repo=() n size
  t0=$(date +%s)
  [ -z "$m2" ] || repo=("-Dmaven.repo.local=$m2")
  log "assembling $what from $name (Maven Central) into $lib"
  cp "$pom" "$dir/pom.xml"
  rm -rf "$lib.part"
  if ! (cd "$dir" && mvn -B -q -ntp -Dstyle.color=never "${repo[@]}" -f pom.xml \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$lib.part" \
    > "$dir/mvn.log" 2>&1); then
    rm -rf "$lib.part"
    die "mvn dependency:copy-dependencies failed for $name; the end of $dir/mvn.log:
$(grep -v '^\s*$' "$dir/mvn.log" | tail -n 20)"
  fi
  rm -rf "$lib"
  mv "$lib.part" "$lib"
  n=$(find "$lib" -name '*.jar' | wc -l)
  size=$(du -sh "$lib" | cut -f1)
  log "assembled $what: $n jars, $size in $(($(date +%s) - t0))s"
  build_done "$dir" "$want"
}
