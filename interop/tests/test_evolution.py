"""A stream whose row type changes between two runs into the same table:
internal/cmd/evolvestream writes v1 rows (int click_count, float score,
device {os}), then v2 rows (click_count and score widened to long and
double, a new column session, a new nested field device.version). Spark and
pyiceberg must read every row of both runs exactly once, with v2's types,
nulls where v1 had no value, and the table's schema history must show the
one evolution.

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


def test_pyiceberg_reads_both_versions(catalog, evolved_table):
  check_rows("pyiceberg", catalog.load_table(evolved_table).scan().to_arrow().to_pylist())


def test_spark_reads_both_versions(spark_dump, evolved_table):
  schema, rows = read_jsonl(os.path.join(spark_dump, evolved_table + ".jsonl"))
  types = {c["name"]: c["type"] for c in schema}
  assert types["click_count"] == "long" and types["score"] == "double", types
  check_rows("spark", rows)


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
    by_schema[snap.schema_id] = by_schema.get(snap.schema_id, 0) + 1
  assert by_schema.get(0) and by_schema.get(1), f"snapshots per schema: {by_schema}"
