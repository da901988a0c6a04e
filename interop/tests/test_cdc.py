"""Engines read the tables pipelines/cdc made from a change log as the log says.

tests/cdc_log.py writes a Debezium change log and computes, by itself, the
table it leaves. pipelines/cdc applies the log (replayed as a stream, one
row-level commit a second) into a format v3 table (deletes as deletion
vectors) and a v2 table (equality deletes). Spark 3.5 with Iceberg 1.10,
iceberg-go (interop/goscan) and DuckDB 1.5's iceberg extension must each
read both tables as exactly that state, and every delete file the v3 table
ever had (Spark's all_delete_files: the sink compacts away files whose rows
are mostly deleted) must be a deletion vector, never an equality delete.
"""
import os

import cdc_log
from conftest import goscan
from tables import read_jsonl


def diff(want, got, limit=8):
  lines = []
  for i in sorted(set(want) | set(got)):
    if want.get(i) != got.get(i):
      lines.append(f"id {i}: want {want.get(i)}, got {got.get(i)}")
  return lines[:limit] + ([f"... {len(lines) - limit} more"] if len(lines) > limit else [])


def test_spark_reads_the_logs_final_state(spark_dump, cdc_tables):
  want = cdc_log.final_state()
  for name in cdc_tables:
    _, rows = read_jsonl(os.path.join(spark_dump, name + ".jsonl"))
    got = {r["id"]: (r["owner"], r["balance_cents"]) for r in rows}
    assert len(rows) == len(got), f"{name}: Spark reads an id twice"
    assert got == {i: v[:2] for i, v in want.items()}, f"{name} read by Spark:\n" + "\n".join(
        diff({i: v[:2] for i, v in want.items()}, got))


def test_iceberg_go_reads_the_logs_final_state(cdc_tables):
  want = cdc_log.final_state()
  for name in cdc_tables:
    _, rows = read_jsonl(goscan(name))
    assert len(rows) == len({r["id"] for r in rows}), f"{name}: iceberg-go reads an id twice"
    got = {r["id"]: (r["owner"], r["balance_cents"]) for r in rows}
    assert got == {i: v[:2] for i, v in want.items()}, f"{name} read by iceberg-go:\n" + "\n".join(
        diff({i: v[:2] for i, v in want.items()}, got))


def test_v3_holds_deletion_vectors_only(spark_dump, cdc_tables):
  for name, version in cdc_tables.items():
    _, files = read_jsonl(os.path.join(spark_dump, name + ".all_delete_files.jsonl"))
    formats = {f["file_format"] for f in files}
    contents = {f["content"] for f in files}
    if version == "3":
      assert files, f"{name}: no delete files"
      assert formats == {"PUFFIN"} and contents == {1}, f"{name}: delete files {formats} {contents}, want PUFFIN position deletes (DVs)"
    else:
      assert contents == {2}, f"{name}: delete file contents {contents}, want equality deletes (2)"


def _duckdb_rows(name):
  """The table's rows as DuckDB's iceberg extension reads them from the
  table's current metadata file."""
  import duckdb_iceberg
  from conftest import URI
  location = duckdb_iceberg.metadata_location(URI, name)
  return duckdb_iceberg.connect().execute(f"SELECT id, owner, balance_cents FROM iceberg_scan('{location}')").fetchall()


def test_duckdb_reads_the_logs_final_state(cdc_tables):
  want = {i: v[:2] for i, v in cdc_log.final_state().items()}
  for name in cdc_tables:
    rows = _duckdb_rows(name)
    got = {i: (owner, balance) for i, owner, balance in rows}
    assert len(rows) == len(got), f"{name}: DuckDB reads an id twice"
    assert got == want, f"{name} read by DuckDB:\n" + "\n".join(diff(want, got))
