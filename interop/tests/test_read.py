"""icebergio.Read on a table Spark made the hard way: format v2 with
merge-on-read deletes and updates (position delete files), a column widened
(float -> double) and one added after data was written. interop/goread reads
it on prism into a Go struct; its rows must equal pyiceberg's and Spark's
reads of the same table, row for row, and a filtered read and a read of an
older snapshot must equal pyiceberg's.

The expected content is also computed here from the statements, so that all
three readers agreeing on a wrong table would still fail.
"""

import datetime
import json
import os
import subprocess
from collections import Counter

import pytest

from conftest import BIN, READ_TABLE as TABLE, URI, WORK
from tables import read_jsonl


def expected():
  rows = {}
  for i in range(1000):
    if i % 7:
      rows[i] = {"id": i, "user": f"user-{i % 5}", "amount": i / 4, "day": i % 3, "note": None}
  for i in range(1000, 1500):
    rows[i] = {"id": i, "user": f"user-{i % 5}", "amount": i / 3, "day": i % 3, "note": f"n{i}"}
  for i in rows:
    if i % 11 == 0:
      rows[i]["note"] = "updated"
  return list(rows.values())


EPOCH = datetime.date(1970, 1, 1)
DAY0 = (datetime.date(2024, 1, 1) - EPOCH).days


def normal(row):
  """A row with day as days since 2024-01-01, whatever the reader's date form."""
  day = row["day"]
  if isinstance(day, str):
    day = datetime.date.fromisoformat(day)
  if isinstance(day, datetime.date):
    day = (day - EPOCH).days
  return (row["id"], row["user"], row["amount"], day - DAY0 if day is not None else None, row["note"])


def as_multiset(rows):
  return Counter(normal(r) for r in rows)


def goread(*args):
  path = os.path.join(WORK, "goread.jsonl")
  with open(path, "w") as out:
    proc = subprocess.run([f"{BIN}/goread", f"--catalog_uri={URI}", f"--table={TABLE}", *args],
                          stdout=out, stderr=subprocess.PIPE, text=True, timeout=300)
  if proc.returncode != 0:
    pytest.fail(f"goread {' '.join(args)} failed: {proc.stderr[-3000:]}", pytrace=False)
  with open(path) as f:
    return [json.loads(line) for line in f if line.strip()]


def test_our_read_equals_the_statements_and_pyiceberg(catalog, spark_events):
  ours = as_multiset(goread())
  want = Counter({(i, u, a, d, n): 1 for i, u, a, d, n in (
      (r["id"], r["user"], r["amount"], r["day"], r["note"]) for r in expected())})
  assert ours == want, f"ours vs expected: missing {list((want - ours).items())[:5]}, extra {list((ours - want).items())[:5]}"
  theirs = as_multiset(catalog.load_table(TABLE).scan().to_arrow().to_pylist())
  assert ours == theirs


def test_our_read_equals_spark(spark_dump, spark_events):
  _, rows = read_jsonl(os.path.join(spark_dump, TABLE + ".jsonl"))
  assert as_multiset(goread()) == as_multiset(rows)


def test_filtered_read(catalog, spark_events):
  ours = as_multiset(goread("--filter=id >= 1400 AND user = 'user-1'"))
  theirs = as_multiset(catalog.load_table(TABLE).scan(row_filter="id >= 1400 and user == 'user-1'").to_arrow().to_pylist())
  assert ours and ours == theirs


def test_time_travel_before_the_deletes(catalog, spark_events):
  tbl = catalog.load_table(TABLE)
  first = min(tbl.snapshots(), key=lambda s: s.timestamp_ms)
  ours = goread(f"--snapshot_id={first.snapshot_id}")
  assert len(ours) == 1000
  theirs = tbl.scan(snapshot_id=first.snapshot_id).to_arrow().to_pylist()
  for r in theirs:
    r.setdefault("note", None)
  assert as_multiset(ours) == as_multiset(theirs)
