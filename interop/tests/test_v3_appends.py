"""Our streaming sink appends to format v3 tables that Spark and pyiceberg made.

Spark (CREATE TABLE ... TBLPROPERTIES ('format-version'='3')) and pyiceberg
(create_table with format-version 3) each make a table (seq, user_id,
click_count); pipelines/clicks --seq_column streams into both twice, at one
row per 10 ms and then flat out, committing every 2 s. Row i of a run is
(i, "user-" + i%10, i%100), so a run of N rows is rows 0..N-1: the multiset
both runs make is built here from that formula. Spark and pyiceberg must
read every row once, and Spark's _row_id (which it derives from each data
file's first_row_id) must be set on every row, unique, and below the
table's next-row-id.
"""

import json
import os
from collections import Counter

import pytest
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType

from conftest import BIN, CATALOG, ROOT, URI, WORK, run

NS = "v3appends"
SPARK_MADE = f"{NS}.spark_made"
PYICEBERG_MADE = f"{NS}.pyiceberg_made"
RUNS = [["--interval=10ms", "--duration=6s"], ["--interval=20us", "--duration=4s"]]


def row_count(catalog, name):
  return catalog.load_table(name).scan().to_arrow().num_rows


@pytest.fixture(scope="session")
def v3_tables(catalog):
  """Makes both tables, streams both runs into each, and dumps them through
  Spark. Returns ({table: [rows of each run]}, Spark's dump directory)."""
  run("spark-create-v3", [
      f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/run_sql.py",
      f"CREATE NAMESPACE IF NOT EXISTS {CATALOG}.{NS}",
      f"CREATE TABLE {CATALOG}.{SPARK_MADE} (seq bigint, user_id string, click_count bigint) USING iceberg "
      "TBLPROPERTIES ('format-version'='3')"], 600)
  catalog.create_table(PYICEBERG_MADE, schema=Schema(
      NestedField(1, "seq", LongType(), required=False),
      NestedField(2, "user_id", StringType(), required=False),
      NestedField(3, "click_count", LongType(), required=False)), properties={"format-version": "3"})
  runs = {}
  for name in (SPARK_MADE, PYICEBERG_MADE):
    runs[name] = []
    for i, flags in enumerate(RUNS):
      before = row_count(catalog, name)
      run(f"clicks-v3-{name}-{i}", [f"{BIN}/clicks", f"--iceberg_table={name}", f"--catalog_uri={URI}",
                                    "--seq_column", "--triggering_frequency_seconds=2"] + flags, 300)
      runs[name].append(row_count(catalog, name) - before)
  out = os.path.join(WORK, "spark-v3")
  os.makedirs(out, exist_ok=True)
  run("spark-row-ids", [f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/row_ids.py",
                        CATALOG, out, SPARK_MADE, PYICEBERG_MADE], 600)
  return runs, out


def expected(runs):
  return Counter((i, f"user-{i % 10}", i % 100) for n in runs for i in range(n))


def as_multiset(rows):
  return Counter((r["seq"], r["user_id"], r["click_count"]) for r in rows)


def spark_rows(out, name):
  with open(os.path.join(out, name + ".rows.jsonl")) as f:
    return [json.loads(line) for line in f]


@pytest.mark.parametrize("name", [SPARK_MADE, PYICEBERG_MADE])
def test_tables_are_v3_and_not_ours(catalog, v3_tables, name):
  tbl = catalog.load_table(name)
  assert tbl.metadata.format_version == 3
  assert "icebeam.created-by" not in tbl.properties
  appends = [s for s in tbl.snapshots() if s.summary.operation.value == "append"]
  assert len(appends) >= 3, f"{len(appends)} appends: two runs at a 2 s trigger commit more often"


@pytest.mark.parametrize("name", [SPARK_MADE, PYICEBERG_MADE])
def test_pyiceberg_reads_every_row(catalog, v3_tables, name):
  runs, _ = v3_tables
  assert all(n > 0 for n in runs[name]), runs[name]
  got = as_multiset(catalog.load_table(name).scan().to_arrow().to_pylist())
  want = expected(runs[name])
  assert got == want, f"missing {list((want - got).items())[:10]}, unexpected {list((got - want).items())[:10]}"


@pytest.mark.parametrize("name", [SPARK_MADE, PYICEBERG_MADE])
def test_spark_reads_every_row_with_a_unique_row_id(catalog, v3_tables, name):
  runs, out = v3_tables
  rows = spark_rows(out, name)
  got = as_multiset(rows)
  want = expected(runs[name])
  assert got == want, f"missing {list((want - got).items())[:10]}, unexpected {list((got - want).items())[:10]}"
  ids = [r["_row_id"] for r in rows]
  assert None not in ids, "rows without a _row_id"
  assert len(set(ids)) == len(ids), f"{len(ids) - len(set(ids))} _row_ids taken twice"
  next_row_id = catalog.load_table(name).metadata.next_row_id
  assert max(ids) < next_row_id, f"_row_id {max(ids)} is not below the table's next-row-id {next_row_id}"
  assert None not in (r["_last_updated_sequence_number"] for r in rows)
