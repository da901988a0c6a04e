"""Shared fixtures: the generated input, the Spark and Go runs, and the readers.

interop/run.sh sets the environment this needs (INTEROP_CATALOG_URI and
INTEROP_BIN, INTEROP_WORK, INTEROP_ROOT) after starting `icebeam serve`; the
expensive steps (the Spark job, the Spark dump) run once per session.
"""

import json
import os
import subprocess
import time

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from pyiceberg.catalog import load_catalog

import tables

CATALOG = "lakehouse"  # the seed tutorial's OUTPUT_CATALOG_NAME
TABLE = "yellow_trips_analyzed"
SPARK_NS = "spark_nyc_taxi"
GO_NS = "nyc_taxi"
REPLACED = "yellow_trips_replaced"


def env(name):
  value = os.environ.get(name)
  if not value:
    pytest.exit(f"{name} is not set: run the suite through interop/run.sh", returncode=2)
  return value


ROOT = env("INTEROP_ROOT")
BIN = env("INTEROP_BIN")
WORK = env("INTEROP_WORK")
URI = env("INTEROP_CATALOG_URI")
ROWS = int(os.environ.get("INTEROP_ROWS", "300000"))


def run(name, cmd, timeout):
  """Runs cmd with its output in WORK/name.log; fails the test with the log's tail."""
  log = os.path.join(WORK, name + ".log")
  start = time.monotonic()
  with open(log, "w") as out:
    try:
      proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, cwd=ROOT)
      code = proc.returncode
    except subprocess.TimeoutExpired:
      code = f"timeout after {timeout}s"
  took = time.monotonic() - start
  print(f"{name}: {took:.1f}s (log {log})")
  if code != 0:
    with open(log) as f:
      tail = "".join(f.readlines()[-40:])
    pytest.fail(f"{name} failed ({code}): {' '.join(cmd)}\n--- last lines of {log}:\n{tail}", pytrace=False)
  return took


def taxigen(rows, seed):
  path = os.path.join(WORK, f"yellow_tripdata_{rows}_seed{seed}.parquet")
  if not os.path.exists(path):
    run(f"taxigen-{rows}-{seed}", [f"{BIN}/taxigen", "-rows", str(rows), "-seed", str(seed), "-out", path], 120)
  return path


def go_taxi(name, input_path, table=TABLE):
  run(name, [f"{BIN}/taxi", f"--input={input_path}", f"--catalog_uri={URI}",
             f"--namespace={GO_NS}", f"--table={table}"], 300)
  return f"{GO_NS}.{table}"


def valid_trips(path):
  """Counts the trips the seed's filter keeps, computed with pyarrow alone."""
  t = pq.read_table(path, columns=["trip_distance", "fare_amount", "passenger_count"])
  keep = pc.and_kleene(
      pc.and_kleene(pc.greater(t["trip_distance"], 0), pc.greater(t["fare_amount"], 0)),
      pc.greater(t["passenger_count"], 0))
  return pc.sum(pc.fill_null(keep, False).cast("int64")).as_py()


@pytest.fixture(scope="session")
def catalog():
  return load_catalog(CATALOG, type="rest", uri=URI)


@pytest.fixture(scope="session")
def taxi_input():
  return taxigen(ROWS, 1)


@pytest.fixture(scope="session")
def spark_table(taxi_input):
  """Runs the seed's taxi_to_iceberg.py, unchanged, into spark_nyc_taxi."""
  run("spark-taxi_to_iceberg", [
      f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/taxi_to_iceberg.py",
      taxi_input, CATALOG, SPARK_NS, TABLE], 900)
  return f"{SPARK_NS}.{TABLE}"


@pytest.fixture(scope="session")
def go_table(taxi_input):
  """Runs our taxi pipeline on the same file into nyc_taxi."""
  return go_taxi("go-taxi", taxi_input)


@pytest.fixture(scope="session")
def replaced(catalog):
  """Runs our pipeline twice into one table with different inputs.

  Returns (first input, second input, snapshot id after the first run).
  """
  first, second = taxigen(40_000, 2), taxigen(25_000, 3)
  ident = go_taxi("go-taxi-replace-1", first, REPLACED)
  first_snapshot = catalog.load_table(ident).current_snapshot().snapshot_id
  go_taxi("go-taxi-replace-2", second, REPLACED)
  return first, second, first_snapshot


@pytest.fixture(scope="session")
def spark_dump(spark_table, go_table, replaced, clicks_tables, evolved_table, spark_compacted, spark_events, cdc_tables):
  """Dumps every table the checks write, and the clicks tables' snapshots
  metadata tables, in one Spark session (Spark's start-up is the slow part).

  Returns the dump directory: <dir>/<ns.table>.jsonl per table.
  """
  names = [spark_table, go_table, f"{GO_NS}.{REPLACED}"]
  for name in clicks_tables:
    names += [name, name + ".snapshots"]
  names += [evolved_table, spark_compacted, spark_events]
  # every delete file the tables ever had: the sink's compaction may have
  # rewritten the DVs of the current snapshot away
  names += [n for name in cdc_tables for n in (name, name + ".all_delete_files")]
  out = os.path.join(WORK, "spark-dump")
  os.makedirs(out, exist_ok=True)
  run("spark-dump_tables", [f"{ROOT}/interop/spark/submit.sh", URI,
                            f"{ROOT}/interop/spark/dump_tables.py", CATALOG, out] + names, 600)
  return out


@pytest.fixture(scope="session")
def spark_reads(spark_dump, spark_table, go_table):
  """Spark's view of the taxi tables, keyed like every other reader's."""
  names = [spark_table, go_table, f"{GO_NS}.{REPLACED}"]
  return {n: tables.from_jsonl(f"spark {n}", os.path.join(spark_dump, n + ".jsonl")) for n in names}


# The streaming clicks runs: (a) unpartitioned, (b) partitioned by
# bucket(user_id, 4) through the clicks pipeline's --partition_by,
# (c) the templated destination, one table per user.
CLICKS_NS = "clicks_stream"
CLICKS_PLAIN = f"{CLICKS_NS}.plain"
CLICKS_BUCKETED = f"{CLICKS_NS}.bucketed"
CLICKS_TEMPLATE = "clicks.user_{user_id}"
CLICKS_USERS = [f"user-{u}" for u in range(10)]
STREAM_FLAGS = ["--interval=5ms", "--triggering_frequency_seconds=2", "--duration=8s"]


def templated_table(user_id):
  # The sink's destination names keep [A-Za-z0-9_] only: user-3 -> user_user_3.
  return "clicks.user_" + user_id.replace("-", "_")


def start_all(jobs):
  """Starts several (name, cmd) at once, each logging to WORK/name.log; wait_all waits for them."""
  procs = []
  for name, cmd in jobs:
    log = os.path.join(WORK, name + ".log")
    out = open(log, "w")
    procs.append((name, cmd, log, out, subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)))
  return procs, time.monotonic()


def wait_all(started, timeout):
  """Waits for the jobs start_all started; fails the test with each failed job's log tail."""
  procs, start = started
  failures = []
  for name, cmd, log, out, proc in procs:
    try:
      code = proc.wait(timeout=max(1, timeout - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
      proc.kill()
      proc.wait()
      code = f"timeout after {timeout}s"
    out.close()
    print(f"{name}: {time.monotonic() - start:.1f}s (log {log})")
    if code != 0:
      with open(log) as f:
        tail = "".join(f.readlines()[-30:])
      failures.append(f"{name} failed ({code}): {' '.join(cmd)}\n--- last lines of {log}:\n{tail}")
  if failures:
    pytest.fail("\n".join(failures), pytrace=False)


def run_all(jobs, timeout):
  """Runs several (name, cmd) at once, each like run(); returns when all end.

  The three streaming runs are mostly waiting on the clock, so running them
  side by side costs about one run's time.
  """
  wait_all(start_all(jobs), timeout)


@pytest.fixture(scope="session")
def clicks_tables():
  """Runs the three streaming clicks pipelines against the catalog.

  Returns {table: kind} for every table they wrote.
  """
  catalog_flags = [f"--catalog_uri={URI}"]
  run_all([
      ("clicks-plain", [f"{BIN}/clicks", f"--iceberg_table={CLICKS_PLAIN}"] + catalog_flags + STREAM_FLAGS),
      ("clicks-bucketed", [f"{BIN}/clicks", f"--iceberg_table={CLICKS_BUCKETED}",
                           "--partition_by=bucket(user_id, 4)"] + catalog_flags + STREAM_FLAGS),
      ("clicks-templated", [f"{BIN}/clicks", f"--iceberg_table={CLICKS_TEMPLATE}"] + catalog_flags + STREAM_FLAGS),
  ], 180)
  out = {CLICKS_PLAIN: "plain", CLICKS_BUCKETED: "bucketed"}
  out.update({templated_table(u): "templated" for u in CLICKS_USERS})
  return out


def icebeam_json(args, what, timeout=120):
  """Runs `icebeam ARGS --format=json` and returns its objects, one a line."""
  proc = subprocess.run([f"{BIN}/icebeam"] + args + ["--format=json"], stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True, timeout=timeout, cwd=ROOT)
  if proc.returncode != 0:
    pytest.fail(f"{what}: icebeam {' '.join(args)} failed: {proc.stderr[-2000:]}", pytrace=False)
  return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def goscan(identifier):
  """Scans a table with iceberg-go (interop/goscan); returns the path of its jsonl dump."""
  path = os.path.join(WORK, f"goscan-{identifier}.jsonl")
  with open(path, "w") as out:
    proc = subprocess.run([f"{BIN}/goscan", f"--catalog_uri={URI}", f"--table={identifier}"],
                          stdout=out, stderr=subprocess.PIPE, text=True, timeout=120)
  if proc.returncode != 0:
    pytest.fail(f"goscan {identifier} failed: {proc.stderr[-2000:]}", pytrace=False)
  return path


def go_read(identifier):
  """Scans a table with iceberg-go (interop/goscan), indexed like the other readers' reads."""
  return tables.from_jsonl(f"iceberg-go {identifier}", goscan(identifier))


# The runs of internal/cmd/evolvestream and the compactions of
# test_evolution.py: v1 rows, then v2 rows, into two tables side by side;
# pipelines/maintain compacts EVOLVE_TABLE while its v2 stream runs, Spark's
# rewrite_data_files compacts EVOLVE_SPARK_TABLE after its stream ends.
EVOLVE_TABLE = "evolve.clicks"
EVOLVE_SPARK_TABLE = "evolve.clicks_spark"
EVOLVE_INTERVAL_MS = 5
EVOLVE_V1_SECONDS = 6
EVOLVE_V2_SECONDS = 12
EVOLVE_N1 = EVOLVE_V1_SECONDS * 1000 // EVOLVE_INTERVAL_MS
EVOLVE_N2 = EVOLVE_V2_SECONDS * 1000 // EVOLVE_INTERVAL_MS


def evolvestream(version, offset, seconds, table):
  return [f"{BIN}/evolvestream", f"--catalog_uri={URI}", f"--iceberg_table={table}", f"--row_version={version}",
          f"--seq_offset={offset}", f"--duration={seconds}s", f"--interval={EVOLVE_INTERVAL_MS}ms",
          "--triggering_frequency_seconds=2"]


@pytest.fixture(scope="session")
def evolved_table(catalog):
  run_all([(f"evolvestream-v1-{t}", evolvestream(1, 0, EVOLVE_V1_SECONDS, t))
           for t in (EVOLVE_TABLE, EVOLVE_SPARK_TABLE)], 300)
  v2 = start_all([(f"evolvestream-v2-{t}", evolvestream(2, EVOLVE_N1, EVOLVE_V2_SECONDS, t))
                  for t in (EVOLVE_TABLE, EVOLVE_SPARK_TABLE)])
  # Compact once the first v2 rows landed, with the stream still running.
  deadline = time.monotonic() + 120
  while not any(snap.schema_id == 1 for snap in catalog.load_table(EVOLVE_TABLE).snapshots()):
    if time.monotonic() > deadline:
      pytest.fail("the v2 stream committed nothing in 120 s", pytrace=False)
    time.sleep(0.2)
  run("maintain-during-v2", [f"{BIN}/maintain", f"--catalog_uri={URI}", f"--table={EVOLVE_TABLE}",
                             "--rewrite_data_files", "--min_input_files=2"], 300)
  wait_all(v2, 300)
  return EVOLVE_TABLE


@pytest.fixture(scope="session")
def spark_compacted(evolved_table):
  run("spark-rewrite_data_files", [
      f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/run_sql.py",
      f"CALL lakehouse.system.rewrite_data_files(table => '{EVOLVE_SPARK_TABLE}', "
      "options => map('min-input-files', '2'))"], 600)
  return EVOLVE_SPARK_TABLE


# The Spark-made table test_read.py reads with icebergio.Read: format v2,
# merge-on-read deletes and updates, a widened and an added column.
READ_TABLE = "reads.events"
READ_STATEMENTS = [
    "CREATE NAMESPACE IF NOT EXISTS lakehouse.reads",
    f"CREATE TABLE lakehouse.{READ_TABLE} (id bigint, user string, amount float, day date) USING iceberg "
    "PARTITIONED BY (day) TBLPROPERTIES ('format-version'='2', 'write.delete.mode'='merge-on-read', "
    "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')",
    f"INSERT INTO lakehouse.{READ_TABLE} SELECT id, concat('user-', id % 5), CAST(id AS float) / 4, "
    "date_add(DATE'2024-01-01', CAST(id % 3 AS int)) FROM range(0, 1000)",
    f"DELETE FROM lakehouse.{READ_TABLE} WHERE id % 7 = 0",
    f"ALTER TABLE lakehouse.{READ_TABLE} ALTER COLUMN amount TYPE double",
    f"ALTER TABLE lakehouse.{READ_TABLE} ADD COLUMN note string",
    f"INSERT INTO lakehouse.{READ_TABLE} SELECT id, concat('user-', id % 5), CAST(id AS double) / 3, "
    "date_add(DATE'2024-01-01', CAST(id % 3 AS int)), concat('n', id) FROM range(1000, 1500)",
    f"UPDATE lakehouse.{READ_TABLE} SET note = 'updated' WHERE id % 11 = 0",
]


@pytest.fixture(scope="session")
def spark_events():
  run("spark-make-reads-events",
      [f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/run_sql.py"] + READ_STATEMENTS, 600)
  return READ_TABLE


# A Debezium change log of an accounts table, written here (tests/cdc_log.py),
# applied by pipelines/cdc into a v3 and a v2 table.
CDC_TABLES = {"cdc.accounts_v3": "3", "cdc.accounts_v2": "2"}


@pytest.fixture(scope="session")
def cdc_tables():
  """Writes the change log and runs pipelines/cdc --input on it into both tables.

  Returns {table: format version}.
  """
  import cdc_log
  log_dir = os.path.join(WORK, "cdc-log")
  cdc_log.write(log_dir)
  run_all([(f"cdc-v{v}", [f"{BIN}/cdc", f"--catalog_uri={URI}", f"--iceberg_table={name}", f"--input={log_dir}",
                          "--rate=800", "--triggering_frequency_seconds=1", f"--format_version={v}"])
           for name, v in CDC_TABLES.items()], 300)
  return CDC_TABLES
