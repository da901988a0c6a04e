"""PostgreSQL's own pgbench, captured by Debezium, landed by pipelines/kafka, read by Spark, pyiceberg and DuckDB.

The issue's first judgement with a workload no one here wrote: pgbench
initialises its four tables (pgbench_accounts, _branches, _tellers and
pgbench_history, which has no primary key), Debezium's PostgreSQL connector
(scripts/debezium.sh) snapshots them into Kafka (scripts/kafka.sh) and
streams pgbench's TPC-B transactions; pipelines/kafka --format=debezium
lands one table per source table while pgbench runs, is stopped with SIGINT
mid-stream, pgbench runs again, and a --bounded run finishes. Every table
must then hold PostgreSQL's own final rows (read with psql), value for value
and type by type, as Spark 3.5 with Iceberg 1.10, pyiceberg and DuckDB's
iceberg extension each read it; each must be format v3 whose every delete
file, ever, is a deletion vector (Puffin), never an equality delete; and
nothing may be rejected.

pgbench initialises before the connector starts: it loads with COPY and
adds the primary keys after, so a connector already running would capture
the accounts as inserts of a table without a key, then the same table with
one. Started after, the connector's snapshot reads tables that have their
keys, as a database that already runs pgbench would be captured. pgbench
runs with -n: without it pgbench truncates pgbench_history before each run,
and a truncate of a table without a key is not applied (it lands append-only;
the truncate goes to the rejected table, saying so), so the second run's
truncate would leave rows PostgreSQL no longer has.
"""

import collections
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import time

import pytest

import duckdb_iceberg
from conftest import BIN, CATALOG, ROOT, URI, WORK, run

NS = "pgbench"
PREFIX = "pgbench"
TABLES = ["pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"]
SCALE = 1  # 100,000 accounts, 10 tellers, 1 branch
CLIENTS = 2

# How each PostgreSQL type pgbench uses reads: the text psql's COPY writes
# to a Python value, the Iceberg type it must land as, and Spark's name of
# that type.
PG_TYPES = {
    "integer": (int, "int", "int"),
    "bigint": (int, "long", "long"),
    "character": (str, "string", "string"),
    "timestamp without time zone": (datetime.datetime.fromisoformat, "timestamp", "timestamp_ntz"),
}


def skip_unless_java():
  """Skips (fails with DEBEZIUM or KAFKA=require) without Java and Maven, as the Go tests' debeziumtest.SkipUnlessJava."""
  for tool in ("java", "mvn"):
    if shutil.which(tool) is None:
      why = f"the Debezium check needs {tool}"
      if "require" in (os.environ.get("DEBEZIUM"), os.environ.get("KAFKA")):
        pytest.fail(why, pytrace=False)
      pytest.skip(why)


def script(name, *args, timeout=300):
  """Runs scripts/NAME.sh ARGS; returns its stdout, failing with its stderr's tail."""
  proc = subprocess.run([f"{ROOT}/scripts/{name}.sh", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True, timeout=timeout, cwd=ROOT)
  if proc.returncode != 0:
    pytest.fail(f"scripts/{name}.sh {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}", pytrace=False)
  return proc.stdout


def started(name, proc):
  """The "PID ADDR" a start command prints."""
  out, err = proc.communicate(timeout=300)
  if proc.returncode != 0:
    pytest.fail(f"starting {name} failed:\n{err[-3000:]}", pytrace=False)
  pid, addr = out.split()[:2]
  return pid, addr


class Source:
  """The running PostgreSQL, Kafka and Debezium, and what the test measured."""

  def __init__(self, pg, kafka):
    self.pg, self.kafka = pg, kafka
    self.figures = {}

  def psql(self, sql):
    return script("postgres", "psql", self.pg, "-Atc", sql)

  def pgbench_cmd(self, *args):
    host, port = self.pg.split(":")
    return [os.path.join(script("postgres", "bin").strip(), "pgbench"), "-h", host, "-p", port, "-U", "postgres",
            *args, "postgres"]

  def pgbench_ended(self, name, code, output):
    """Fails on a failed pgbench run, else keeps its transactions and tps."""
    if code != 0:
      pytest.fail(f"{name}: pgbench failed ({code}):\n{output[-3000:]}", pytrace=False)
    for what, pattern in (("transactions", r"actually processed: (\d+)"), ("tps", r"tps = ([\d.]+)")):
      m = re.search(pattern, output)
      if m:
        self.figures[f"{name} {what}"] = m.group(1)

  def pgbench(self, name, *args):
    proc = subprocess.run(self.pgbench_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300)
    with open(os.path.join(WORK, f"{name}.log"), "w") as f:
      f.write(proc.stdout)
    self.pgbench_ended(name, proc.returncode, proc.stdout)

  def end_offset(self, topic):
    """The topic's end offset (its one partition's), None while it does not exist."""
    classpath = script("kafka", "classpath").strip()
    proc = subprocess.run(["java", "-cp", classpath, "org.apache.kafka.tools.GetOffsetShell",
                           "--bootstrap-server", self.kafka, "--topic", topic],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=120)
    offsets = [int(line.rsplit(":", 1)[1]) for line in proc.stdout.split() if line.startswith(topic + ":")]
    return sum(offsets) if offsets else None

  def wait_for_topic(self, topic, at_least, timeout=120):
    deadline = time.monotonic() + timeout
    while (n := self.end_offset(topic)) is None or n < at_least:
      if time.monotonic() > deadline:
        pytest.fail(f"topic {topic} has {n} records after {timeout}s, want {at_least}", pytrace=False)
      time.sleep(0.5)


def pipeline(src, *extra):
  return [f"{BIN}/kafka", f"--catalog_uri={URI}", f"--bootstrap_servers={src.kafka}", "--format=debezium", f"--topic_pattern={PREFIX}\\.public\\..*",
          f"--iceberg_table={NS}.{{table}}", f"--rejected_table={NS}.rejected", *extra]


def snapshots(catalog, name):
  try:
    return len(catalog.load_table(name).snapshots())
  except Exception:  # not created yet
    return 0


@pytest.fixture(scope="session")
def pgbench_tables(catalog):
  """Runs the whole flow; returns the Source, its servers still running, for the checks to read PostgreSQL."""
  skip_unless_java()
  t0 = time.monotonic()
  owner = str(os.getpid())
  kafka = subprocess.Popen([f"{ROOT}/scripts/kafka.sh", "start", "--port", "0", "--dir", f"{WORK}/kafka", "--owner", owner],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
  pg = subprocess.Popen([f"{ROOT}/scripts/postgres.sh", "start", "--port", "0", "--dir", f"{WORK}/pg", "--owner", owner],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
  pg_pid, pg_addr = started("PostgreSQL", pg)
  src = Source(pg_addr, None)
  stops = [("postgres", pg_pid)]
  bench = None
  try:
    src.pgbench("pgbench-init", "-i", "-s", str(SCALE), "-q")
    # The marker table tells when Debezium has written every change before
    # the bounded run: it is ours, not the workload's, and not compared.
    src.psql("CREATE TABLE icebeam_marker (id int PRIMARY KEY); INSERT INTO icebeam_marker VALUES (0)")
    kafka_pid, src.kafka = started("Kafka", kafka)
    stops.append(("kafka", kafka_pid))
    dbz_pid, _ = started("Debezium", subprocess.Popen(
        [f"{ROOT}/scripts/debezium.sh", "start", "--bootstrap", src.kafka, "--pg", pg_addr, "--db", "postgres",
         "--prefix", PREFIX, "--dir", f"{WORK}/debezium", "--owner", owner],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT))
    stops.insert(0, ("debezium", dbz_pid))
    src.figures["servers and snapshot s"] = f"{time.monotonic() - t0:.1f}"

    # pgbench runs while the job streams, until the job has stopped (its
    # -T only bounds it: a loaded machine starts the job late); the job
    # starts once pgbench_history (empty at the snapshot) has its topic,
    # as a job plans the topics that exist when it starts.
    bench = subprocess.Popen(src.pgbench_cmd("-n", "-c", str(CLIENTS), "-j", str(CLIENTS), "-T", "300"),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    src.wait_for_topic(f"{PREFIX}.public.pgbench_history", 1)
    stream_log = open(os.path.join(WORK, "dbz-stream.log"), "w")
    job = subprocess.Popen(pipeline(src, "--triggering_frequency_seconds=2"), stdout=stream_log, stderr=subprocess.STDOUT,
                           cwd=WORK)
    try:
      deadline = time.monotonic() + 120
      while snapshots(catalog, f"{NS}.pgbench_history") < 3:
        if job.poll() is not None or time.monotonic() > deadline:
          pytest.fail(f"the streaming job made no third commit of pgbench_history (exit {job.poll()}); "
                      f"see {stream_log.name}", pytrace=False)
        time.sleep(0.5)
      if bench.poll() is not None:
        pytest.fail("pgbench ended before the job was stopped: the SIGINT would not come mid-stream", pytrace=False)
      job.send_signal(signal.SIGINT)
      code = job.wait(timeout=120)
    finally:
      if job.poll() is None:
        job.kill()
      stream_log.close()
    if code != 0:
      pytest.fail(f"the streaming job exited {code} after SIGINT; see {stream_log.name}", pytrace=False)
    src.figures["streamed commits of pgbench_history"] = snapshots(catalog, f"{NS}.pgbench_history")
    # Transactions pgbench had open roll back; PostgreSQL's rows stay
    # the truth the tables are compared with.
    bench.terminate()
    output, _ = bench.communicate(timeout=120)
    if bench.returncode != -signal.SIGTERM:
      src.pgbench_ended("pgbench-streamed", bench.returncode, output)

    src.pgbench("pgbench-after-sigint", "-n", "-c", str(CLIENTS), "-j", str(CLIENTS), "-T", "5")
    src.psql("INSERT INTO icebeam_marker VALUES (1)")
    src.wait_for_topic(f"{PREFIX}.public.icebeam_marker", 2)
    src.figures["bounded run s"] = f"{run('dbz-bounded', pipeline(src, '--bounded'), 300):.1f}"
    src.figures["flow s"] = f"{time.monotonic() - t0:.1f}"
    yield src
  finally:
    if bench is not None and bench.poll() is None:
      bench.kill()
    for name, pid in stops:
      subprocess.run([f"{ROOT}/scripts/{name}.sh", "stop", pid], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     timeout=120, cwd=ROOT)
    with open(os.path.join(WORK, "debezium-figures.json"), "w") as f:
      json.dump(src.figures, f, indent=1)
    print("pgbench through Debezium:", json.dumps(src.figures))


@pytest.fixture(scope="session")
def postgres_rows(pgbench_tables):
  """{table: (columns [(name, PostgreSQL type)], Counter of row tuples)} as PostgreSQL has them."""
  src = pgbench_tables
  cols = collections.defaultdict(list)
  for line in src.psql("SELECT table_name, column_name, data_type FROM information_schema.columns "
                       "WHERE table_schema = 'public' AND table_name LIKE 'pgbench%' "
                       "ORDER BY table_name, ordinal_position").splitlines():
    table, column, typ = line.split("|")
    if typ not in PG_TYPES:
      pytest.fail(f"{table}.{column} is {typ}: this check does not read that type", pytrace=False)
    cols[table].append((column, typ))
  assert sorted(cols) == TABLES, f"pgbench made tables {sorted(cols)}"
  out = {}
  for table, columns in cols.items():
    select = ", ".join(
        f"to_char({c}, 'YYYY-MM-DD\"T\"HH24:MI:SS.US')" if typ.startswith("timestamp") else c for c, typ in columns)
    text = script("postgres", "psql", src.pg, "-c", f"COPY (SELECT {select} FROM {table}) TO STDOUT")
    rows = collections.Counter()
    for line in text.split("\n"):
      if not line:
        continue
      rows[tuple(None if v == "\\N" else PG_TYPES[typ][0](v) for v, (_, typ) in zip(line.split("\t"), columns))] += 1
    out[table] = (columns, rows)
  pgbench_tables.figures.update({f"{t} rows": sum(r.values()) for t, (_, r) in out.items()})
  return out


@pytest.fixture(scope="session")
def spark_pgbench_dump(pgbench_tables):
  names = [n for t in TABLES for n in (f"{NS}.{t}", f"{NS}.{t}.all_delete_files", f"{NS}.{t}.delete_files")]
  out = os.path.join(WORK, "spark-dump-pgbench")
  os.makedirs(out, exist_ok=True)
  took = run("spark-dump-pgbench", [f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/dump_tables.py",
                                    CATALOG, out] + names, 600)
  pgbench_tables.figures["spark dump s"] = f"{took:.1f}"
  return out


def read_dump(path):
  with open(path) as f:
    lines = [json.loads(line) for line in f if line.strip()]
  return lines[0]["schema"], lines[1:]


def as_rows(columns, dicts):
  """A reader's rows (dicts) as PostgreSQL's tuples: timestamps to datetimes, the rest as read."""
  rows = collections.Counter()
  for d in dicts:
    row = []
    for name, typ in columns:
      v = d[name]
      if v is not None and typ.startswith("timestamp") and isinstance(v, str):
        v = datetime.datetime.fromisoformat(v)  # Spark's dump writes ISO text
      row.append(v)
    rows[tuple(row)] += 1
  return rows


def assert_same(table, want, got, source, limit=5):
  if want == got:
    return
  missing, extra = want - got, got - want
  lines = [f"{NS}.{table} read by {source}: {sum(got.values())} rows, PostgreSQL {sum(want.values())}"]
  lines += [f"  only in PostgreSQL: {r}" for r in list(missing)[:limit]]
  lines += [f"  only in {source}: {r}" for r in list(extra)[:limit]]
  pytest.fail("\n".join(lines), pytrace=False)


@pytest.mark.parametrize("table", TABLES)
def test_spark_reads_postgres_rows(table, postgres_rows, spark_pgbench_dump):
  columns, want = postgres_rows[table]
  schema, dicts = read_dump(os.path.join(spark_pgbench_dump, f"{NS}.{table}.jsonl"))
  types = {c["name"]: c["type"] for c in schema}
  assert {c: types.get(c) for c, _ in columns} == {c: PG_TYPES[t][2] for c, t in columns}, f"Spark's types of {table}"
  assert_same(table, want, as_rows(columns, dicts), "Spark")


@pytest.mark.parametrize("table", TABLES)
def test_pyiceberg_reads_postgres_rows(table, catalog, postgres_rows):
  columns, want = postgres_rows[table]
  tbl = catalog.load_table(f"{NS}.{table}")
  types = {f.name: str(f.field_type) for f in tbl.schema().fields}
  assert {c: types.get(c) for c, _ in columns} == {c: PG_TYPES[t][1] for c, t in columns}, f"Iceberg types of {table}"
  assert_same(table, want, as_rows(columns, tbl.scan().to_arrow().to_pylist()), "pyiceberg")


@pytest.mark.parametrize("table", TABLES)
def test_duckdb_reads_postgres_rows(table, postgres_rows, pgbench_tables):
  columns, want = postgres_rows[table]
  location = duckdb_iceberg.metadata_location(URI, f"{NS}.{table}")
  cur = duckdb_iceberg.connect().execute(
      f"SELECT {', '.join(c for c, _ in columns)} FROM iceberg_scan('{location}')")
  got = collections.Counter(tuple(r) for r in cur.fetchall())
  assert_same(table, want, got, "DuckDB")


@pytest.mark.parametrize("table", TABLES)
def test_v3_with_deletion_vectors_only(table, catalog, spark_pgbench_dump, pgbench_tables):
  tbl = catalog.load_table(f"{NS}.{table}")
  assert tbl.metadata.format_version == 3, f"{table} is format v{tbl.metadata.format_version}"
  _, files = read_dump(os.path.join(spark_pgbench_dump, f"{NS}.{table}.all_delete_files.jsonl"))
  kinds = collections.Counter((f["file_format"], f["content"]) for f in files)
  pgbench_tables.figures[f"{table} delete files"] = len(files)
  assert set(kinds) <= {("PUFFIN", 1)}, f"{table}: delete files {dict(kinds)}, want Puffin position deletes (DVs) only"
  if table == "pgbench_history":
    # no key: append-only, nothing to delete
    assert not files, f"{table}: delete files {dict(kinds)} in an append-only table"
  else:
    # pgbench updates every table but history
    assert files, f"{table}: no deletion vector, yet pgbench updated its rows"
  _, live = read_dump(os.path.join(spark_pgbench_dump, f"{NS}.{table}.delete_files.jsonl"))
  pgbench_tables.figures[f"{table} live deletion vectors"] = len(live)
  if table == "pgbench_accounts":
    # About a tenth of the accounts change, under the share at which the
    # sink compacts them away: the readers' rows above are only a check of
    # how they apply deletion vectors if the current snapshot has some.
    assert live, f"{table}: the current snapshot has no deletion vector for the readers to apply"


def test_nothing_rejected(catalog, pgbench_tables):
  try:
    tbl = catalog.load_table(f"{NS}.rejected")
  except Exception:
    return  # never created: nothing was
  rows = tbl.scan(selected_fields=("topic", "reason")).to_arrow().to_pylist()
  assert not rows, f"rejected: {rows[:5]}"
