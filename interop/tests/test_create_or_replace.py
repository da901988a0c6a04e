"""Check c: running our taxi pipeline twice with different inputs replaces the
table (as Spark's createOrReplace does): readers see only the second run's
rows, and the history keeps both snapshots.

The expected rows come from a small pyarrow implementation of the seed's
aggregation, independent of the pipeline. Integer columns and keys must match
exactly; rounded doubles within one cent, since a different summation order
may flip a half-cent rounding, and this check is about replace semantics
(exact equality with Spark is test_spark_parity's job).
"""

import decimal

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import tables
from conftest import GO_NS, REPLACED

IDENT = f"{GO_NS}.{REPLACED}"
DOUBLE_TOLERANCE = 0.01 + 1e-9


def half_up(x, places=2):
  # Spark's round(): HALF_UP on the double's shortest decimal form.
  q = decimal.Decimal(1).scaleb(-places)
  return float(decimal.Decimal(repr(x)).quantize(q, rounding=decimal.ROUND_HALF_UP))


def expected_rows(path):
  """The seed's filter and daily aggregates, computed row by row in Python."""
  cols = ["tpep_pickup_datetime", "payment_type", "passenger_count", "trip_distance",
          "fare_amount", "tip_amount", "total_amount"]
  t = pq.read_table(path, columns=cols)
  keep = pc.fill_null(pc.and_kleene(pc.and_kleene(
      pc.greater(t["trip_distance"], 0), pc.greater(t["fare_amount"], 0)),
      pc.greater(t["passenger_count"], 0)), False)
  groups = {}
  for r in t.filter(keep).to_pylist():
    day = r["tpep_pickup_datetime"]
    key = (day and day.date().isoformat(), r["payment_type"])
    g = groups.setdefault(key, {"n": 0, "pass": 0, "dist": 0.0, "fare": 0.0, "tips": [], "totals": []})
    g["n"] += 1
    g["pass"] += r["passenger_count"]
    g["dist"] += r["trip_distance"]
    g["fare"] += r["fare_amount"]
    if r["tip_amount"] is not None:  # avg() skips NULLs
      g["tips"].append(half_up(r["tip_amount"] / r["fare_amount"] * 100))
    if r["total_amount"] is not None:
      g["totals"].append(r["total_amount"])
  return {k: {"trip_date": k[0], "payment_type": k[1], "total_trips": g["n"], "total_passengers": g["pass"],
              "avg_distance": half_up(g["dist"] / g["n"]), "avg_fare": half_up(g["fare"] / g["n"]),
              "avg_tip_percentage": half_up(sum(g["tips"]) / len(g["tips"])) if g["tips"] else None,
              "total_revenue": half_up(sum(g["totals"])) if g["totals"] else None}
          for k, g in groups.items()}


def mismatches(want, got):
  problems = [f"row {k}: expected, missing" for k in sorted(set(want) - set(got.rows), key=repr)]
  problems += [f"row {k}: not expected (left over from the first run?)" for k in sorted(set(got.rows) - set(want), key=repr)]
  for k in sorted(set(want) & set(got.rows), key=repr):
    for col, w in want[k].items():
      g = got.rows[k][col]
      if isinstance(w, float) and isinstance(g, float):
        ok = abs(g - w) <= DOUBLE_TOLERANCE
      else:
        ok = g == w
      if not ok:
        problems.append(f"row {k} column {col}: expected {w!r}, {got.source} has {g!r}")
  return problems


def assert_rows(want, got):
  problems = mismatches(want, got)
  if problems:
    pytest.fail(f"{len(problems)} difference(s):\n  " + "\n  ".join(problems[:30]), pytrace=False)


def test_inputs_differ(replaced):
  first, second, _ = replaced
  a, b = expected_rows(first), expected_rows(second)
  assert set(a) != set(b) or any(a[k]["total_trips"] != b[k]["total_trips"] for k in a), \
      "the two inputs give the same aggregates: the check could not tell them apart"


def test_pyiceberg_sees_only_second_run(catalog, replaced):
  _, second, _ = replaced
  assert_rows(expected_rows(second), tables.from_pyiceberg(catalog, IDENT))


def test_spark_sees_only_second_run(replaced, spark_reads):
  _, second, _ = replaced
  assert_rows(expected_rows(second), spark_reads[IDENT])


def test_history_has_both_snapshots(catalog, replaced):
  first, _, first_snapshot = replaced
  tbl = catalog.load_table(IDENT)
  snapshots = tbl.metadata.snapshots
  history = tbl.history()
  assert len(snapshots) == 2, f"want 2 snapshots, have {[s.snapshot_id for s in snapshots]}"
  assert len(history) == 2, f"want 2 history entries, have {history}"
  assert history[0].snapshot_id == first_snapshot
  assert history[-1].snapshot_id == tbl.current_snapshot().snapshot_id != first_snapshot
  # The first snapshot stays readable by time travel and still holds the first run.
  assert_rows(expected_rows(first), tables.from_pyiceberg(catalog, IDENT, snapshot_id=first_snapshot))
