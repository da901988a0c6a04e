"""icebergio.ReadChanges' row-level stream (Mode RowChanges) of tables Spark
changes with INSERT, DELETE, UPDATE, MERGE INTO and a compaction, in
copy-on-write (format v2) and merge-on-read (v2 position deletes, v3
deletion vectors) modes, equals Spark's own changelog of them
(create_changelog_view with identifier columns): the same set of
(change type, snapshot, row), and on the snapshots Spark computes directly,
the same _change_ordinal.

Spark 3.5 with Iceberg 1.10.1 refuses a changelog over any snapshot that
holds a delete manifest ("Delete files are currently not supported in
changelog scans"), so for merge-on-read tables Spark's changelog covers
directly only the snapshots before the first delete file; the rest is
Spark's changelog of a copy-on-write twin that replays each snapshot
(interop/spark/changelog.py). test_spark_refuses_merge_on_read_changelog
records the refusal, so that an Iceberg that lifts it shows up here.
"""

import json
import os
import subprocess
from collections import Counter

import pytest

from conftest import BIN, CDC_TABLES, ROOT, URI, WORK, run

TABLES = {
    "changelog.cow_v2": ("2", "copy-on-write"),
    "changelog.mor_v2": ("2", "merge-on-read"),
    "changelog.mor_v3": ("3", "merge-on-read"),
}


@pytest.fixture(scope="module")
def spark_changelog(cdc_tables):
  out = os.path.join(WORK, "spark-changelog.json")
  run("spark-changelog", [f"{ROOT}/interop/spark/submit.sh", URI, f"{ROOT}/interop/spark/changelog.py", "lakehouse", out]
      + [f"{name}:{v}:{mode}" for name, (v, mode) in TABLES.items()]
      + [f"{name}:existing" for name in cdc_tables], 900)
  with open(out) as f:
    return json.load(f)


def our_changes(name, snapshots, row="changes"):
  """ReadChanges' rows of the table's snapshots, replace ones not counted."""
  n = sum(1 for s in snapshots if s["operation"] != "replace")
  path = os.path.join(WORK, f"goread-changes-{name}.jsonl")
  with open(path, "w") as out:
    proc = subprocess.run([f"{BIN}/goread", f"--catalog_uri={URI}", f"--table={name}", f"--changes={n}", f"--row={row}"],
                          stdout=out, stderr=subprocess.PIPE, text=True, timeout=300)
  if proc.returncode != 0:
    pytest.fail(f"goread --changes {name} failed: {proc.stderr[-3000:]}", pytrace=False)
  with open(path) as f:
    return [json.loads(line) for line in f if line.strip()]


def key(r, ordinal=False):
  """(change type, snapshot id, the row's columns[, ordinal])."""
  row = tuple(sorted((k, v) for k, v in r.items() if not k.startswith("_") and k != "source"))
  k = (r["_change_type"], int(r["_commit_snapshot_id"]), row)
  return k + (r["_change_ordinal"],) if ordinal else k


def diff(want, got):
  missing, extra = want - got, got - want
  return f"missing {sorted(missing.items())[:10]}, extra {sorted(extra.items())[:10]}"


@pytest.mark.parametrize("name", list(TABLES))
def test_row_changes_equal_sparks_changelog(spark_changelog, name):
  entry = spark_changelog[name]
  snaps = entry["snapshots"]
  # Spark's changelog of the table where it has one, of the twin elsewhere.
  direct_ids = set(entry["direct_snapshots"])
  spark_rows = [r for r in entry["rows"] if (r["source"] == "direct") == (int(r["_commit_snapshot_id"]) in direct_ids)]
  ours = our_changes(name, snaps)
  by_id = {s["id"]: s for s in snaps}

  # The history is what the statements make: appends, deletes, overwrites
  # and a compaction, every change kind present.
  ops = [s["operation"] for s in snaps]
  assert ops.count("replace") == 1 and ops[0] == "append", ops
  kinds = Counter(r["_change_type"] for r in spark_rows)
  assert set(kinds) == {"INSERT", "DELETE", "UPDATE_BEFORE", "UPDATE_AFTER"}, kinds
  assert kinds["UPDATE_BEFORE"] == kinds["UPDATE_AFTER"]

  for r in ours:
    assert by_id[int(r["_commit_snapshot_id"])]["operation"] != "replace", r
  assert Counter(key(r) for r in ours) == Counter(key(r) for r in spark_rows), diff(
      Counter(key(r) for r in spark_rows), Counter(key(r) for r in ours))

  # Where Spark computed the changelog of the table itself, the ordinals
  # agree too (both count from the first snapshot, replace ones skipped).
  direct = [r for r in spark_rows if r["source"] == "direct"]
  assert direct, "no snapshot computed by Spark directly"
  ours_direct = [r for r in ours if int(r["_commit_snapshot_id"]) in direct_ids]
  assert Counter(key(r, True) for r in ours_direct) == Counter(key(r, True) for r in direct)


def test_spark_refuses_merge_on_read_changelog(spark_changelog):
  for name, (_, mode) in TABLES.items():
    entry = spark_changelog[name]
    has_deletes = any(s["deletes"] for s in entry["snapshots"])
    if mode == "copy-on-write":
      assert not has_deletes and entry["whole_table_error"] is None, entry["whole_table_error"]
      continue
    assert has_deletes
    assert "Delete files are currently not supported in changelog scans" in (entry["whole_table_error"] or ""), (
        f"{name}: Spark computed the changelog of a merge-on-read table: compare with it directly now")
    # The twin's changelog agrees with Spark's direct one where both exist.
    direct = Counter(key(r) for r in entry["rows"] if r["source"] == "direct")
    twin = Counter(key(r) for r in entry["rows"] if r["source"] == "twin"
                   and int(r["_commit_snapshot_id"]) in set(entry["direct_snapshots"]))
    assert direct and direct == twin, diff(direct, twin)


def test_v3_replaced_a_deletion_vector(spark_changelog):
  # A statement on the v3 table replaced the deletion vector of a file that
  # already had one: the case where only the positions the old one lacks
  # are deleted rows.
  summaries = [s["summary"] for s in spark_changelog["changelog.mor_v3"]["snapshots"]]
  assert any(int(p.get("removed-dvs", 0)) > 0 for p in summaries), summaries
  assert not any(int(p.get("added-position-delete-files", 0)) for p in summaries), "v3: deletion vectors only"
  v2 = [s["summary"] for s in spark_changelog["changelog.mor_v2"]["snapshots"]]
  assert any(int(p.get("added-position-delete-files", 0)) for p in v2)


@pytest.mark.parametrize("name", list(CDC_TABLES))
def test_row_changes_of_our_cdc_tables_equal_sparks_changelog(spark_changelog, name):
  # pipelines/cdc's tables: row deltas with equality deletes (v2) and
  # deletion vectors (v3), and the sink's own compactions. Spark computes
  # no changelog of them directly (their first snapshot has deletes): its
  # changelog of the twin is the reference.
  entry = spark_changelog[name]
  snaps = entry["snapshots"]
  summaries = [s["summary"] for s in snaps]
  if CDC_TABLES[name] == "2":
    assert any(int(p.get("added-equality-deletes", 0)) for p in summaries), summaries
  else:
    assert any(int(p.get("added-dvs", p.get("added-position-delete-files", 0))) for p in summaries), summaries
  assert len([s for s in snaps if s["operation"] != "replace"]) > 2, snaps
  ours = our_changes(name, snaps, row="account_changes")
  theirs = [r for r in entry["rows"] if r["source"] == "twin"]
  kinds = Counter(r["_change_type"] for r in theirs)
  assert set(kinds) == {"INSERT", "DELETE", "UPDATE_BEFORE", "UPDATE_AFTER"}, kinds
  assert Counter(key(r) for r in ours) == Counter(key(r) for r in theirs), diff(
      Counter(key(r) for r in theirs), Counter(key(r) for r in ours))
