"""Check that pyiceberg and Spark read our streaming clicks tables as we do.

Three bounded streams of the clicks pipeline (prism, 8 s, a commit every
2 s) write (a) an unpartitioned table, (b) one partitioned by
bucket(user_id, 4), (c) the templated destination clicks.user_{user_id}.
Row i of a stream is ("user-" + i%10, i%100), so N committed rows must be
exactly rows 0..N-1: that multiset is built here from the formula, not by
the code under test. Each engine's snapshot history (ids, parent chain,
operation, added-records) must equal what `icebeam snapshots` reports.
"""

import json
import os
import subprocess
from collections import Counter

import pytest

from conftest import (BIN, CLICKS_BUCKETED, CLICKS_PLAIN, CLICKS_USERS, URI, icebeam_json,
                      templated_table)
from tables import read_jsonl


def expected_rows(n):
  return Counter((f"user-{i % 10}", i % 100) for i in range(n))


def as_multiset(rows):
  return Counter((r["user_id"], r["click_count"]) for r in rows)


def multiset_diff(want, got, limit=10):
  missing = want - got
  extra = got - want
  lines = [f"missing {k} x{v}" for k, v in sorted(missing.items())[:limit]]
  lines += [f"unexpected {k} x{v}" for k, v in sorted(extra.items())[:limit]]
  return lines


def pyiceberg_rows(catalog, name):
  return catalog.load_table(name).scan().to_arrow().to_pylist()


def goscan_rows(name):
  proc = subprocess.run([f"{BIN}/goscan", f"--catalog_uri={URI}", f"--table={name}"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
  if proc.returncode != 0:
    pytest.fail(f"goscan {name} failed: {proc.stderr[-2000:]}", pytrace=False)
  lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
  return lines[1:]


def our_history(name):
  """(snapshot id, parent id, operation, added records), oldest first, by icebeam snapshots."""
  return [(s["snapshot_id"], s["parent_id"], s["operation"], s["added_records"])
          for s in icebeam_json(["snapshots", name, f"--catalog_uri={URI}"], name)]


def pyiceberg_history(catalog, name):
  out = []
  for s in catalog.load_table(name).metadata.snapshots:
    added = s.summary.get("added-records") if s.summary else None
    out.append((s.snapshot_id, s.parent_snapshot_id, s.summary.operation.value,
                int(added) if added is not None else None))
  return out


def spark_history(spark_dump, name):
  _, rows = read_jsonl(os.path.join(spark_dump, name + ".snapshots.jsonl"))
  rows.sort(key=lambda r: r["committed_at"])
  out = []
  for r in rows:
    added = (r.get("summary") or {}).get("added-records")
    out.append((r["snapshot_id"], r["parent_id"], r["operation"], int(added) if added is not None else None))
  return out


def check_history(name, history):
  """The sink's streaming commits: appends, each on the previous one."""
  assert len(history) >= 2, f"{name}: want several streaming commits, got {len(history)} snapshot(s): {history}"
  prev = None
  for sid, parent, op, added in history:
    assert parent == prev, f"{name}: snapshot {sid} has parent {parent}, want {prev} (history {history})"
    assert op == "append", f"{name}: snapshot {sid} is a {op}, want append"
    assert added and added > 0, f"{name}: snapshot {sid} added {added} records"
    prev = sid
  return sum(h[3] for h in history)


@pytest.fixture(scope="module")
def histories(clicks_tables):
  return {name: our_history(name) for name in clicks_tables}


SINGLE = [CLICKS_PLAIN, CLICKS_BUCKETED]


@pytest.mark.parametrize("name", SINGLE)
def test_rows_are_the_generated_stream(catalog, spark_dump, histories, name):
  n = check_history(name, histories[name])
  want = expected_rows(n)
  assert n > 0
  readers = {
      "pyiceberg": pyiceberg_rows(catalog, name),
      "spark": read_jsonl(os.path.join(spark_dump, name + ".jsonl"))[1],
      "iceberg-go": goscan_rows(name),
  }
  for who, rows in readers.items():
    problems = multiset_diff(want, as_multiset(rows))
    assert not problems, (f"{who} read of {name}: {len(rows)} rows, want rows 0..{n - 1} of the stream "
                          f"(sum of added-records):\n  " + "\n  ".join(problems))


@pytest.mark.parametrize("name", SINGLE + [templated_table(u) for u in CLICKS_USERS])
def test_snapshot_history_matches_ours(catalog, spark_dump, histories, name):
  ours = histories[name]
  assert ours, f"{name}: icebeam snapshots lists no snapshot"
  assert pyiceberg_history(catalog, name) == ours, f"{name}: pyiceberg's snapshots differ from icebeam snapshots"
  assert spark_history(spark_dump, name) == ours, f"{name}: Spark's {name}.snapshots differs from icebeam snapshots"


@pytest.mark.parametrize("name", SINGLE + [templated_table(u) for u in CLICKS_USERS])
def test_one_data_file_per_commit_and_partition(catalog, clicks_tables, name):
  """A window's rows land in one file per partition (nothing here rolls on size)."""
  for s in catalog.load_table(name).metadata.snapshots:
    files = int(s.summary.get("added-data-files"))
    partitions = int(s.summary.get("changed-partition-count") or 1)
    assert files == partitions, (f"{name}: snapshot {s.snapshot_id} added {files} data files "
                                 f"for {partitions} partition(s)")


def test_partitioned_table_has_bucket_partitions(catalog, clicks_tables):
  tbl = catalog.load_table(CLICKS_BUCKETED)
  fields = [(tbl.schema().find_field(f.source_id).name, str(f.transform)) for f in tbl.spec().fields]
  assert fields == [("user_id", "bucket[4]")], f"{CLICKS_BUCKETED}: partition spec {fields}"
  files = tbl.inspect.files().to_pylist()
  buckets = {f["partition"]["user_id_bucket"] for f in files}
  # 10 users hash into at most 4 buckets; fewer than 2 would mean no real partitioning.
  assert len(buckets) >= 2 and buckets <= {0, 1, 2, 3}, f"{CLICKS_BUCKETED}: data file buckets {buckets}"
  # A filtered scan prunes by bucket and must still find exactly user-0's rows.
  one = tbl.scan(row_filter="user_id == 'user-0'").to_arrow()
  assert one.num_rows > 0 and set(one["user_id"].to_pylist()) == {"user-0"}


def test_templated_destination_splits_the_stream_by_user(catalog, spark_dump, histories, clicks_tables):
  names = sorted(t for t, kind in clicks_tables.items() if kind == "templated")
  listed = sorted(".".join(ident) for ident in catalog.list_tables("clicks"))
  assert listed == names, f"tables in namespace clicks: {listed}, want one per user: {names}"
  n = sum(check_history(name, histories[name]) for name in names)
  assert n > 0
  want = expected_rows(n)
  for who in ("pyiceberg", "spark", "iceberg-go"):
    union = Counter()
    for user, name in zip(CLICKS_USERS, [templated_table(u) for u in CLICKS_USERS]):
      if who == "pyiceberg":
        rows = pyiceberg_rows(catalog, name)
      elif who == "spark":
        rows = read_jsonl(os.path.join(spark_dump, name + ".jsonl"))[1]
      else:
        rows = goscan_rows(name)
      users = {r["user_id"] for r in rows}
      assert users == {user}, f"{who} read of {name}: user_ids {sorted(users)}, want only {user}"
      union += as_multiset(rows)
    problems = multiset_diff(want, union)
    assert not problems, f"{who}: the 10 tables together are not rows 0..{n - 1}:\n  " + "\n  ".join(problems)
