"""PostgreSQL's own pgbench, captured by Debezium, landed by pipelines/kafka, read by Spark, pyiceberg and DuckDB.

The issue's first judgement with a workload no one here wrote: pgbench
initialises its four tables (pgbench_accounts, _branches, _tellers and
pgbench_history, which has no primary key), Debezium's PostgreSQL connector
(scripts/debezium.sh) snapshots them into Kafka (scripts/kafka.sh) and
streams pgbench's TPC-B transactions; pipelines/kafka --format=debezium
lands one table per source table while pgbench runs, and a --bounded run
finishes once the streaming job has ended. Every table must then hold
PostgreSQL's own final rows (read with psql), value for value and type by
type, as Spark 3.5 with Iceberg 1.10, pyiceberg and DuckDB's iceberg
extension each read it; each must be format v3 whose every delete file,
ever, is a deletion vector (Puffin), never an equality delete; and nothing
may be rejected.

The flow runs twice, each with servers and tables of its own: on prism,
where the streaming job is stopped with SIGINT mid-stream and pgbench runs
again before the bounded run; and on Beam's portable Flink runner
(scripts/jobserver.sh, parallelism 2, checkpoints every 5 s, the SDK
harnesses in a worker pool of their own), where the Kafka broker is stopped
for 15 s mid-stream and started again on the same data while pgbench goes
on, and the job ends at its --duration.

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
import socket
import subprocess
import time

import pytest

import duckdb_iceberg
from conftest import BIN, CATALOG, ROOT, URI, WORK, run

PREFIX = "pgbench"
TABLES = ["pgbench_accounts", "pgbench_branches", "pgbench_history", "pgbench_tellers"]
SCALE = 1  # 100,000 accounts, 10 tellers, 1 branch
CLIENTS = 2
HISTORY_TOPIC = f"{PREFIX}.public.pgbench_history"
MARKER_TOPIC = f"{PREFIX}.public.icebeam_marker"

# The Flink flow: the job's --duration covers its start (slow: the job
# server stages the pipeline binary), the commits before the outage, the
# outage and the broker's restart, and commits after; pgbench is paced so
# that it leaves the two cores to the job, the broker and the connector.
FLINK_SECONDS = 120
FLINK_TPS = 100
OUTAGE_SECONDS = 15
FLINK_CONF = """parallelism.default: 2
taskmanager.numberOfTaskSlots: 2
execution.checkpointing.interval: 5s
state.checkpoints.dir: file://{dir}
"""

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


class Source:
  """One flow's running PostgreSQL, Kafka and Debezium (and job server), and what the test measured.

  Each runner's flow has its own servers, directory (WORK/debezium-RUNNER),
  logs (WORK/*-RUNNER.log) and namespace of tables.
  """

  def __init__(self, runner):
    self.runner = runner
    self.ns = "pgbench" if runner == "prism" else f"pgbench_{runner}"
    self.dir = os.path.join(WORK, f"debezium-{runner}")
    os.makedirs(self.dir, exist_ok=True)
    self.owner = str(os.getpid())
    self.pg = self.kafka = None
    self.launched = {}  # script -> its start command, still starting
    self.stops = []  # (script, pid): the servers, the last started first
    self.procs = []  # the test's own processes (pgbench, the worker pool), killed at the end
    self.figures = {}

  def log(self, name):
    return os.path.join(WORK, f"{name}-{self.runner}.log")

  def launch(self, name, *args, env=None):
    """Starts scripts/NAME.sh start ARGS in the background, so that slow starts overlap; started() waits for it."""
    self.launched[name] = subprocess.Popen(
        [f"{ROOT}/scripts/{name}.sh", "start", *args, "--owner", self.owner], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=ROOT, env=dict(os.environ, **(env or {})))

  def started(self, name):
    """Waits for the start launch() began; returns the "PID ADDR" it printed. The server is stopped at the end."""
    proc = self.launched.pop(name)
    out, err = proc.communicate(timeout=300)
    if proc.returncode != 0:
      pytest.fail(f"starting {name} failed:\n{err[-3000:]}", pytrace=False)
    pid, addr = out.split()[:2]
    self.stops.insert(0, (name, pid))
    return pid, addr

  def stop(self):
    for proc in self.procs:
      if proc.poll() is None:
        proc.kill()
        proc.wait()
    for name, proc in self.launched.items():
      out, _ = proc.communicate(timeout=300)
      if proc.returncode == 0:
        self.stops.insert(0, (name, out.split()[0]))
    for name, pid in self.stops:
      subprocess.run([f"{ROOT}/scripts/{name}.sh", "stop", pid], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     timeout=120, cwd=ROOT)
    if not os.environ.get("INTEROP_KEEP"):
      # Half a gigabyte a flow, mostly the snapshot's events; the logs stay.
      for data in ("kafka/data", "pg/data", "checkpoints"):
        shutil.rmtree(os.path.join(self.dir, data), ignore_errors=True)
    with open(os.path.join(WORK, f"debezium-figures-{self.runner}.json"), "w") as f:
      json.dump(self.figures, f, indent=1)
    print(f"pgbench through Debezium on {self.runner}:", json.dumps(self.figures))

  def start(self):
    """Starts PostgreSQL and Kafka, initialises pgbench's tables and starts Debezium on them."""
    t0 = time.monotonic()
    self.launch("kafka", "--port", "0", "--dir", f"{self.dir}/kafka")
    self.launch("postgres", "--port", "0", "--dir", f"{self.dir}/pg")
    _, self.pg = self.started("postgres")
    self.pgbench("pgbench-init", "-i", "-s", str(SCALE), "-q")
    # The marker table tells when Debezium has written every change before
    # the bounded run: it is ours, not the workload's, and not compared.
    self.psql("CREATE TABLE icebeam_marker (id int PRIMARY KEY); INSERT INTO icebeam_marker VALUES (0)")
    _, self.kafka = self.started("kafka")
    self.launch("debezium", "--bootstrap", self.kafka, "--pg", self.pg, "--db", "postgres", "--prefix", PREFIX,
                "--dir", f"{self.dir}/debezium")
    self.started("debezium")
    self.figures["servers and snapshot s"] = f"{time.monotonic() - t0:.1f}"

  def stop_broker(self):
    """Stops the Kafka broker (a clean shutdown, its data kept)."""
    i = next(i for i, (name, _) in enumerate(self.stops) if name == "kafka")
    script("kafka", "stop", self.stops.pop(i)[1])
    return i

  def start_broker(self, i):
    """Starts the broker stop_broker stopped on the same directory, at the same address, to stop in its turn."""
    self.launch("kafka", "--dir", f"{self.dir}/kafka")
    _, addr = self.started("kafka")
    self.stops.insert(i, self.stops.pop(0))
    assert addr == self.kafka, f"the broker came back on {addr}, not {self.kafka}"

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
    with open(self.log(name), "w") as f:
      f.write(proc.stdout)
    self.pgbench_ended(name, proc.returncode, proc.stdout)

  def start_pgbench(self, *args):
    """Starts pgbench's TPC-B in the background, until end_pgbench (its -T only bounds it)."""
    proc = subprocess.Popen(self.pgbench_cmd("-n", "-c", str(CLIENTS), "-j", str(CLIENTS), *args),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    self.procs.append(proc)
    return proc

  def end_pgbench(self, name, proc):
    # Transactions pgbench had open roll back; PostgreSQL's rows stay
    # the truth the tables are compared with.
    proc.terminate()
    output, _ = proc.communicate(timeout=120)
    with open(self.log(name), "w") as f:
      f.write(output)
    if proc.returncode != -signal.SIGTERM:
      self.pgbench_ended(name, proc.returncode, output)

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

  def pipeline(self, *extra):
    return [f"{BIN}/kafka", f"--catalog_uri={URI}", f"--bootstrap_servers={self.kafka}", "--format=debezium",
            f"--topic_pattern={PREFIX}\\.public\\..*", f"--iceberg_table={self.ns}.{{table}}",
            f"--rejected_table={self.ns}.rejected", *extra]

  def finish(self):
    """Runs the pipeline with --bounded once Debezium has written every change PostgreSQL committed before."""
    self.psql("INSERT INTO icebeam_marker VALUES (1)")
    self.wait_for_topic(MARKER_TOPIC, 2)
    self.figures["bounded run s"] = f"{run(f'dbz-bounded-{self.runner}', self.pipeline('--bounded'), 300):.1f}"


def snapshots(catalog, name):
  try:
    return len(catalog.load_table(name).snapshots())
  except Exception:  # not created yet
    return 0


def wait_for_commits(catalog, src, job, at_least, what, timeout=180):
  """Waits until the streaming job made at_least commits of pgbench_history."""
  deadline = time.monotonic() + timeout
  while snapshots(catalog, f"{src.ns}.pgbench_history") < at_least:
    if job.poll() is not None or time.monotonic() > deadline:
      pytest.fail(f"the streaming job made fewer than {at_least} commits of pgbench_history {what} "
                  f"(exit {job.poll()}); see {src.log('dbz-stream')}", pytrace=False)
    time.sleep(0.5)


def stream_prism(src, catalog):
  """Streams on prism while pgbench runs, stops the job with SIGINT mid-stream and runs pgbench again."""
  # The job starts once pgbench_history (empty at the snapshot) has its
  # topic, as a job plans the topics that exist when it starts.
  bench = src.start_pgbench("-T", "300")
  src.wait_for_topic(HISTORY_TOPIC, 1)
  with open(src.log("dbz-stream"), "w") as stream_log:
    job = subprocess.Popen(src.pipeline("--triggering_frequency_seconds=2"), stdout=stream_log,
                           stderr=subprocess.STDOUT, cwd=WORK)
    try:
      wait_for_commits(catalog, src, job, 3, "before the SIGINT")
      if bench.poll() is not None:
        pytest.fail("pgbench ended before the job was stopped: the SIGINT would not come mid-stream", pytrace=False)
      job.send_signal(signal.SIGINT)
      code = job.wait(timeout=120)
    finally:
      if job.poll() is None:
        job.kill()
  if code != 0:
    pytest.fail(f"the streaming job exited {code} after SIGINT; see {stream_log.name}", pytrace=False)
  src.figures["streamed commits of pgbench_history"] = snapshots(catalog, f"{src.ns}.pgbench_history")
  src.end_pgbench("pgbench-streamed", bench)
  src.pgbench("pgbench-after-sigint", "-n", "-c", str(CLIENTS), "-j", str(CLIENTS), "-T", "5")


def worker_pool(src):
  """Starts the pipeline binary as the external worker pool of the Flink job's SDK harnesses; returns its address."""
  with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    addr = f"localhost:{s.getsockname()[1]}"
  with open(src.log("worker-pool"), "w") as out:
    proc = subprocess.Popen([f"{BIN}/kafka", f"--worker_pool={addr}"], stdout=out, stderr=subprocess.STDOUT, cwd=WORK)
  src.procs.append(proc)
  deadline = time.monotonic() + 30
  while True:
    try:
      socket.create_connection(("127.0.0.1", int(addr.split(":")[1])), timeout=1).close()
      return addr
    except OSError:
      if proc.poll() is not None or time.monotonic() > deadline:
        pytest.fail(f"the worker pool did not listen on {addr} (exit {proc.poll()}); see {src.log('worker-pool')}",
                    pytrace=False)
      time.sleep(0.1)


def launch_flink(src):
  """Starts the Flink job server, whose start overlaps the servers' and pgbench's initialisation."""
  conf = os.path.join(src.dir, "flink-conf")
  os.makedirs(conf, exist_ok=True)
  with open(os.path.join(conf, "flink-conf.yaml"), "w") as f:
    f.write(FLINK_CONF.format(dir=os.path.join(src.dir, "checkpoints")))
  # info: the log holds Flink's checkpoints and job restarts, counted below.
  src.launch("jobserver", "flink", "--job-port", "0", "--conf-dir", conf, "--log", src.log("jobserver"),
             env={"JOBSERVER_LOG_LEVEL": "info"})


def stream_flink(src, catalog):
  """Streams on Flink while pgbench runs, the broker stopped for OUTAGE_SECONDS mid-stream; the job ends at its --duration."""
  _, endpoint = src.started("jobserver")
  pool = worker_pool(src)
  bench = src.start_pgbench("-R", str(FLINK_TPS), "-T", "600")
  src.wait_for_topic(HISTORY_TOPIC, 1)
  t0 = time.monotonic()
  with open(src.log("dbz-stream"), "w") as stream_log:
    job = subprocess.Popen(src.pipeline("--runner=flink", f"--endpoint={endpoint}", "--environment_type=EXTERNAL",
                                        f"--environment_config={pool}", "--triggering_frequency_seconds=5",
                                        f"--duration={FLINK_SECONDS}s"),
                           stdout=stream_log, stderr=subprocess.STDOUT, cwd=WORK)
    try:
      wait_for_commits(catalog, src, job, 2, "before the outage")
      src.figures["first commits s"] = f"{time.monotonic() - t0:.1f}"
      broker = src.stop_broker()
      src.figures["outage at s"] = f"{time.monotonic() - t0:.1f}"
      # Counted with the broker down: every row beyond these reached
      # Kafka after the outage.
      before = int(src.psql("SELECT count(*) FROM pgbench_history"))
      time.sleep(OUTAGE_SECONDS)
      src.start_broker(broker)
      if job.poll() is not None:
        pytest.fail(f"the job ended (exit {job.poll()}) before the broker came back: raise FLINK_SECONDS; "
                    f"see {stream_log.name}", pytrace=False)
      src.figures["broker back at s"] = f"{time.monotonic() - t0:.1f}"
      code = job.wait(timeout=FLINK_SECONDS + 240)
    finally:
      if job.poll() is None:
        job.kill()
  src.figures["streaming job s"] = f"{time.monotonic() - t0:.1f}"
  if code != 0:
    pytest.fail(f"the Flink job exited {code}; see {stream_log.name}", pytrace=False)
  if bench.poll() is not None:
    pytest.fail("pgbench ended before the Flink job: the job did not stream it to its end", pytrace=False)
  with open(src.log("jobserver")) as f:
    jslog = f.read()
  src.figures["completed checkpoints"] = jslog.count("Completed checkpoint")
  src.figures["job restarts"] = jslog.count("Restoring job")
  src.figures["streamed commits of pgbench_history"] = snapshots(catalog, f"{src.ns}.pgbench_history")
  # An exit 0 at --duration means the job's last window is committed:
  # the table must hold changes that went into Kafka after the outage.
  landed = len(catalog.load_table(f"{src.ns}.pgbench_history").scan(selected_fields=("tid",)).to_arrow())
  src.figures["pgbench_history rows at the outage"] = before
  src.figures["pgbench_history rows the Flink job landed"] = landed
  if landed <= before:
    pytest.fail(f"the Flink job landed {landed} rows of pgbench_history, PostgreSQL had {before} when the broker "
                f"stopped: nothing sent after the outage was committed; see {stream_log.name}", pytrace=False)
  src.end_pgbench("pgbench-streamed", bench)


FLOWS = {"prism": (None, stream_prism), "flink": (launch_flink, stream_flink)}


@pytest.fixture(scope="session", params=list(FLOWS))
def pgbench_tables(request, catalog):
  """Runs the whole flow on one runner; returns the Source, its servers still running, for the checks to read PostgreSQL."""
  skip_unless_java()
  launch, stream = FLOWS[request.param]
  src = Source(request.param)
  t0 = time.monotonic()
  try:
    if launch:
      launch(src)
    src.start()
    stream(src, catalog)
    src.finish()
    src.figures["flow s"] = f"{time.monotonic() - t0:.1f}"
    yield src
  finally:
    src.stop()


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
  src.figures.update({f"{t} rows": sum(r.values()) for t, (_, r) in out.items()})
  return out


@pytest.fixture(scope="session")
def spark_pgbench_dump(pgbench_tables):
  src = pgbench_tables
  names = [n for t in TABLES for n in (f"{src.ns}.{t}", f"{src.ns}.{t}.all_delete_files", f"{src.ns}.{t}.delete_files")]
  out = os.path.join(WORK, f"spark-dump-pgbench-{src.runner}")
  os.makedirs(out, exist_ok=True)
  took = run(f"spark-dump-pgbench-{src.runner}", [f"{ROOT}/interop/spark/submit.sh", URI,
                                                 f"{ROOT}/interop/spark/dump_tables.py", CATALOG, out] + names, 600)
  src.figures["spark dump s"] = f"{took:.1f}"
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


def assert_same(name, want, got, source, limit=5):
  if want == got:
    return
  missing, extra = want - got, got - want
  lines = [f"{name} read by {source}: {sum(got.values())} rows, PostgreSQL {sum(want.values())}"]
  lines += [f"  only in PostgreSQL: {r}" for r in list(missing)[:limit]]
  lines += [f"  only in {source}: {r}" for r in list(extra)[:limit]]
  pytest.fail("\n".join(lines), pytrace=False)


@pytest.mark.parametrize("table", TABLES)
def test_spark_reads_postgres_rows(table, pgbench_tables, postgres_rows, spark_pgbench_dump):
  name = f"{pgbench_tables.ns}.{table}"
  columns, want = postgres_rows[table]
  schema, dicts = read_dump(os.path.join(spark_pgbench_dump, f"{name}.jsonl"))
  types = {c["name"]: c["type"] for c in schema}
  assert {c: types.get(c) for c, _ in columns} == {c: PG_TYPES[t][2] for c, t in columns}, f"Spark's types of {table}"
  assert_same(name, want, as_rows(columns, dicts), "Spark")


@pytest.mark.parametrize("table", TABLES)
def test_pyiceberg_reads_postgres_rows(table, catalog, pgbench_tables, postgres_rows):
  name = f"{pgbench_tables.ns}.{table}"
  columns, want = postgres_rows[table]
  tbl = catalog.load_table(name)
  types = {f.name: str(f.field_type) for f in tbl.schema().fields}
  assert {c: types.get(c) for c, _ in columns} == {c: PG_TYPES[t][1] for c, t in columns}, f"Iceberg types of {table}"
  assert_same(name, want, as_rows(columns, tbl.scan().to_arrow().to_pylist()), "pyiceberg")


@pytest.mark.parametrize("table", TABLES)
def test_duckdb_reads_postgres_rows(table, pgbench_tables, postgres_rows):
  name = f"{pgbench_tables.ns}.{table}"
  columns, want = postgres_rows[table]
  location = duckdb_iceberg.metadata_location(URI, name)
  cur = duckdb_iceberg.connect().execute(
      f"SELECT {', '.join(c for c, _ in columns)} FROM iceberg_scan('{location}')")
  got = collections.Counter(tuple(r) for r in cur.fetchall())
  assert_same(name, want, got, "DuckDB")


@pytest.mark.parametrize("table", TABLES)
def test_v3_with_deletion_vectors_only(table, catalog, pgbench_tables, spark_pgbench_dump):
  name = f"{pgbench_tables.ns}.{table}"
  tbl = catalog.load_table(name)
  assert tbl.metadata.format_version == 3, f"{name} is format v{tbl.metadata.format_version}"
  _, files = read_dump(os.path.join(spark_pgbench_dump, f"{name}.all_delete_files.jsonl"))
  kinds = collections.Counter((f["file_format"], f["content"]) for f in files)
  pgbench_tables.figures[f"{table} delete files"] = len(files)
  assert set(kinds) <= {("PUFFIN", 1)}, f"{name}: delete files {dict(kinds)}, want Puffin position deletes (DVs) only"
  if table == "pgbench_history":
    # no key: append-only, nothing to delete
    assert not files, f"{name}: delete files {dict(kinds)} in an append-only table"
  else:
    # pgbench updates every table but history
    assert files, f"{name}: no deletion vector, yet pgbench updated its rows"
  _, live = read_dump(os.path.join(spark_pgbench_dump, f"{name}.delete_files.jsonl"))
  pgbench_tables.figures[f"{table} live deletion vectors"] = len(live)
  if table == "pgbench_accounts":
    # About a tenth of the accounts change, under the share at which the
    # sink compacts them away: the readers' rows above are only a check of
    # how they apply deletion vectors if the current snapshot has some.
    assert live, f"{name}: the current snapshot has no deletion vector for the readers to apply"


def test_nothing_rejected(catalog, pgbench_tables):
  try:
    tbl = catalog.load_table(f"{pgbench_tables.ns}.rejected")
  except Exception:
    return  # never created: nothing was
  rows = tbl.scan(selected_fields=("topic", "reason")).to_arrow().to_pylist()
  assert not rows, f"rejected: {rows[:5]}"
