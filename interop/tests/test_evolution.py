"""A stream whose row type changes between two runs into the same table, and
compaction while it streams.

internal/cmd/evolvestream writes v1 rows (int click_count, float score,
device {os}), then v2 rows (click_count and score widened to long and
double, a new column session, a new nested field device.version) into two
tables side by side. While v2 streams into the first, pipelines/maintain
--rewrite_data_files compacts it; Spark's rewrite_data_files compacts the
second after its stream. Spark and pyiceberg must read every row of both
runs exactly once from both tables, with v2's types and nulls where v1 had
no value; the schema history must show the one evolution, and the
compaction a replace snapshot with the stream's appends on both sides.

Expected rows come from evolvestream's documented formulas, computed here.
"""

import os

from conftest import EVOLVE_N1, EVOLVE_N2
from tables import read_jsonl


def expected_row(s, version):
  if version == 1:
    return {"seq": s, "user_id": f"user-{s % 10}", "click_count": s % 100, "score": s / 4,
            "device": {"os": f"os-{s % 2}", "version": None}, "session": None}
  return {"seq": s, "user_id": f"user-{s % 10}", "click_count": (s % 100) << 32, "score": s / 3,
          "device": {"os": f"os-{s % 2}", "version": "2.0"}, "session": f"session-{s % 7}"}


def expected_rows():
  return ([expected_row(s, 1) for s in range(EVOLVE_N1)] +
          [expected_row(s, 2) for s in range(EVOLVE_N1, EVOLVE_N1 + EVOLVE_N2)])


def check_rows(engine, rows):
  rows = sorted(rows, key=lambda r: r["seq"])
  seqs = [r["seq"] for r in rows]
  assert len(seqs) == len(set(seqs)), f"{engine}: {len(seqs) - len(set(seqs))} rows read twice"
  want = expected_rows()
  assert len(rows) == len(want), f"{engine}: {len(rows)} rows, want {len(want)}"
  for got, exp in zip(rows, want):
    assert got == exp, f"{engine}: seq {exp['seq']}: got {got}, want {exp}"


def spark_rows(spark_dump, name):
  schema, rows = read_jsonl(os.path.join(spark_dump, name + ".jsonl"))
  types = {c["name"]: c["type"] for c in schema}
  assert types["click_count"] == "long" and types["score"] == "double", types
  return rows


def test_pyiceberg_reads_both_versions(catalog, evolved_table):
  check_rows("pyiceberg", catalog.load_table(evolved_table).scan().to_arrow().to_pylist())


def test_spark_reads_both_versions(spark_dump, evolved_table):
  check_rows("spark", spark_rows(spark_dump, evolved_table))


def test_spark_compaction_leaves_the_same_rows(catalog, spark_dump, spark_compacted):
  check_rows("pyiceberg (Spark-compacted)", catalog.load_table(spark_compacted).scan().to_arrow().to_pylist())
  check_rows("spark (Spark-compacted)", spark_rows(spark_dump, spark_compacted))


def test_schema_history_shows_the_evolution(catalog, evolved_table):
  tbl = catalog.load_table(evolved_table)
  schemas = tbl.schemas()
  assert len(schemas) == 2, f"{len(schemas)} schemas: {list(schemas.values())}"
  old, new = schemas[0], schemas[1]
  assert str(old.find_type("click_count")) == "int" and str(old.find_type("score")) == "float"
  assert str(new.find_type("click_count")) == "long" and str(new.find_type("score")) == "double"
  for name in ("click_count", "score", "device.os", "seq"):
    assert old.find_field(name).field_id == new.find_field(name).field_id, name
  assert not new.find_field("session").required and not new.find_field("device.version").required
  by_schema = {}
  for snap in tbl.snapshots():
    if snap.summary.operation.value == "append":
      by_schema[snap.schema_id] = by_schema.get(snap.schema_id, 0) + 1
  assert by_schema.get(0) and by_schema.get(1), f"appends per schema: {by_schema}"


def history(tbl):
  """The main branch's snapshots, oldest first."""
  snaps = []
  snap = tbl.current_snapshot()
  while snap is not None:
    snaps.append(snap)
    snap = tbl.snapshot_by_id(snap.parent_snapshot_id) if snap.parent_snapshot_id else None
  return snaps[::-1]


def test_compaction_ran_while_the_stream_appended(catalog, evolved_table):
  ops = [s.summary.operation.value for s in history(catalog.load_table(evolved_table))]
  assert "replace" in ops, ops
  i = ops.index("replace")
  assert "append" in ops[:i] and "append" in ops[i + 1:], f"no appends on both sides of the compaction: {ops}"


def test_compaction_made_fewer_files(catalog, evolved_table, spark_compacted):
  for name in (evolved_table, spark_compacted):
    tbl = catalog.load_table(name)
    snaps = history(tbl)
    replace = next(s for s in snaps if s.summary.operation.value == "replace")
    removed, added = int(replace.summary["deleted-data-files"]), int(replace.summary["added-data-files"])
    assert removed >= 2 and added < removed, f"{name}: replace removed {removed} files, added {added}"
