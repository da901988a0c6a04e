#!/usr/bin/env bash
# Interoperability suite: the seed's PySpark job, pyiceberg and iceberg-go
# against our Iceberg REST catalog (`icebeam serve`), checking that our taxi
# pipeline writes the same table as Spark, to the cent, that each engine
# reads the others' tables, that Spark and pyiceberg read our streaming
# clicks tables (plain, partitioned, templated) as our reader does, and that
# our sink writes to a Nessie branch (Nessie server + fake-gcs-server), and
# that Spark, pyiceberg and DuckDB read the tables pipelines/kafka lands from
# PostgreSQL's pgbench through Debezium as PostgreSQL's own rows, streamed on
# prism and on Beam's Flink runner through a broker outage (-k debezium;
# skips without Java and Maven).
#
#   interop/run.sh                  # whole suite
#   interop/run.sh -k parity        # extra arguments go to pytest
#   INTEROP_ROWS=1000000 interop/run.sh
#   INTEROP_KEEP=1 interop/run.sh   # keep the work dir (logs, catalog, inputs)
#
# The first run installs a Python venv (pyspark, pyiceberg, pytest, pinned in
# interop/requirements.txt) and the Iceberg Spark runtime jar into
# .cache/interop/; later runs download nothing. Needs Go, python3 (3.9+),
# curl and Java 8/11/17 (plus Java 21+ for Nessie, whose checks skip without
# it; the Nessie jar is cached in .cache/interop/ too). Ends with one "interop: N passed, N failed" line and
# exits non-zero when any check failed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/icebeam-interop-XXXXXX")
cleanup() {
  stop_catalog
  stop_nessie
  if [ -n "${INTEROP_KEEP:-}" ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

setup_failed() {
  echo "interop: setup failed: $1" >&2
  echo "interop: 0 passed, 1 failed"
  exit 1
}

check_java || setup_failed "java"
ensure_python || setup_failed "installing the Python venv"
ensure_jar || setup_failed "fetching $ICEBERG_RUNTIME"
log "building Go binaries"
build_go || setup_failed "go build (icebeam, taxi, taxigen, goscan)"
start_catalog "$WORK/catalog" || setup_failed "starting icebeam serve"
# Nessie is optional: without it (no Java 21+, no download) its checks skip
# and say why; INTEROP_NO_NESSIE=1 skips it on purpose.
if [ -n "${INTEROP_NO_NESSIE:-}" ]; then
  NESSIE_SKIP="INTEROP_NO_NESSIE is set"
elif ! start_nessie "$WORK/nessie"; then
  log "Nessie checks will skip: $NESSIE_SKIP"
fi

export PYTHONDONTWRITEBYTECODE=1  # keep __pycache__ out of the work tree
export INTEROP_ROOT="$ROOT" INTEROP_BIN="$BIN" INTEROP_WORK="$WORK" INTEROP_CATALOG_URI="$CATALOG_URI"
export INTEROP_NESSIE_URI="${NESSIE_URI:-}" INTEROP_NESSIE_API="${NESSIE_API:-}" INTEROP_GCS_URI="${GCS_URI:-}"
export INTEROP_NESSIE_SKIP="${NESSIE_SKIP:-}"
log "running checks (work dir $WORK)"
"$VENV/bin/python" -m pytest "$ROOT/interop/tests" -p no:cacheprovider -v -rfEs \
  --junitxml="$WORK/junit.xml" "$@"
code=$?

# The plain closing line, from pytest's own report: errors (a failed fixture
# such as the Spark job) count as failures.
"$VENV/bin/python" - "$WORK/junit.xml" "$code" <<'PY'
import sys, xml.etree.ElementTree as ET
path, code = sys.argv[1], int(sys.argv[2])
try:
    root = ET.parse(path).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    total, fail, err, skip = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
    # pytest reports an expected failure (xfail) as skipped, typed pytest.xfail.
    xfail = sum(1 for c in suite.iter("testcase") for sk in c.findall("skipped") if sk.get("type") == "pytest.xfail")
except (OSError, ET.ParseError, AttributeError):
    total, fail, err, skip, xfail = 0, 0, 0, 0, 0
failed = fail + err
if failed == 0 and code != 0:
    failed = 1  # pytest itself failed (usage error, collection error, interrupted)
line = f"interop: {total - fail - err - skip} passed, {failed} failed"
if xfail:
    line += f", {xfail} failed as expected"
if skip - xfail:
    line += f", {skip - xfail} skipped"
print(line)
PY
exit $code
