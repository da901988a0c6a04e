"""Spark makes tables with identifier fields and changes them row by row,
then dumps its own changelog of them (create_changelog_view), for
interop/tests/test_changelog.py to compare icebergio.ReadChanges' row-level
stream with.

Usage: changelog.py <catalog> <out.json> <namespace.table>:<format-version>:<write mode>...

A table given as <namespace.table>:existing is not made here (our own sink
wrote it): only its changelog is dumped. Tables are keyed by a column id.

Spark 3.5 with Iceberg 1.10.1 computes a changelog only over snapshots that
hold no delete manifest ("Delete files are currently not supported in
changelog scans"): copy-on-write tables, and the snapshots of a
merge-on-read table before its first delete file. For the rest of a
merge-on-read table, Spark's changelog is taken of a copy-on-write twin
that replays the table snapshot by snapshot (each snapshot read back with
VERSION AS OF and merged into the twin, inserting, updating and deleting
what changed): the same logical changes, in a table Spark can compute the
changelog of. Snapshots of the twin map back to the table's.

The output is one JSON object: per table, its snapshots (id, operation,
whether it has delete manifests), the error the whole-table changelog hit,
and Spark's change rows, each with the table's snapshot id it belongs to and
where it came from ("direct" or "twin").
"""

import json
import sys

from pyspark.sql import SparkSession


def statements(t, cat):
  ns_table = t[len(cat) + 1:]
  return [
      # two appends
      f"INSERT INTO {t} SELECT id, concat('v', id), id * 10 FROM range(0, 40)",
      f"INSERT INTO {t} SELECT id, concat('v', id), id * 10 FROM range(40, 60)",
      f"DELETE FROM {t} WHERE id % 7 = 0",
      f"UPDATE {t} SET v = concat(v, '-u'), n = n + 1 WHERE id % 5 = 1",
      # deletes, updates and inserts in one snapshot; rows of files the
      # previous statements already deleted from (a deletion vector
      # replacing another on v3)
      f"MERGE INTO {t} t USING (SELECT id, CASE WHEN id % 2 = 0 THEN 'd' ELSE 'u' END AS op, "
      f"concat('m', id) AS v, id AS n FROM range(30, 70, 3)) s ON t.id = s.id "
      "WHEN MATCHED AND s.op = 'd' THEN DELETE WHEN MATCHED THEN UPDATE SET v = s.v, n = s.n "
      "WHEN NOT MATCHED THEN INSERT (id, v, n) VALUES (s.id, s.v, s.n)",
      # an update that changes no value: rows carried over, no change
      f"UPDATE {t} SET n = n WHERE id < 10",
      f"UPDATE {t} SET v = NULL WHERE id = 11",
      # a compaction: a replace snapshot, no change
      f"CALL {cat}.system.rewrite_data_files(table => '{ns_table}', options => map('rewrite-all', 'true'))",
      f"DELETE FROM {t} WHERE id BETWEEN 20 AND 25",
      f"UPDATE {t} SET n = -n WHERE id % 4 = 3",
  ]


def snapshots(spark, t):
  """The table's snapshots in commit order, each with whether it holds a delete manifest."""
  rows = spark.sql(f"SELECT snapshot_id, parent_id, operation, summary FROM {t}.snapshots").collect()
  with_deletes = {r.reference_snapshot_id for r in spark.sql(
      f"SELECT DISTINCT reference_snapshot_id FROM {t}.all_manifests WHERE content = 1").collect()}
  by_parent = {r.parent_id: r for r in rows}
  out, parent = [], None
  while parent in by_parent:
    r = by_parent[parent]
    out.append({"id": r.snapshot_id, "operation": r.operation, "deletes": r.snapshot_id in with_deletes,
                "summary": dict(r.summary)})
    parent = r.snapshot_id
  return out


def columns(spark, t):
  """t's columns, timestamps as microseconds since the epoch (as our rows hold them)."""
  out = []
  for f in spark.table(t).schema.fields:
    if f.dataType.typeName() in ("timestamp", "timestamp_ntz"):
      # a timestamp without zone read as UTC wall time: its stored value
      out.append(f"unix_micros(CAST({f.name} AS TIMESTAMP)) AS {f.name}")
    else:
      out.append(f.name)
  return out


def change_rows(spark, cat, t, view, options=None):
  """Spark's changelog of t (options: start/end snapshot), updates computed by identifier."""
  ns_table = t[len(cat) + 1:]
  opts = ""
  if options:
    opts = ", options => map(" + ", ".join(f"'{k}', '{v}'" for k, v in options.items()) + ")"
  spark.sql(f"CALL {cat}.system.create_changelog_view(table => '{ns_table}', changelog_view => '{view}'"
            f"{opts}, identifier_columns => array('id'))")
  select = ", ".join(columns(spark, t) + ["_change_type", "_change_ordinal", "_commit_snapshot_id"])
  return [r.asDict() for r in spark.sql(f"SELECT {select} FROM {view}").collect()]


def main():
  cat, out_path = sys.argv[1], sys.argv[2]
  spark = SparkSession.builder.appName("interop: changelog").getOrCreate()
  spark.conf.set("spark.sql.session.timeZone", "UTC")
  result = {}
  for spec in sys.argv[3:]:
    name, version, mode = (spec.split(":") + ["", ""])[:3]
    t = f"{cat}.{name}"
    if version != "existing":
      ns = name.split(".")[0]
      spark.sql(f"CREATE NAMESPACE IF NOT EXISTS {cat}.{ns}")
      spark.sql(f"CREATE TABLE {t} (id bigint NOT NULL, v string, n bigint) USING iceberg TBLPROPERTIES ("
                f"'format-version'='{version}', 'write.delete.mode'='{mode}', 'write.update.mode'='{mode}', "
                f"'write.merge.mode'='{mode}')")
      spark.sql(f"ALTER TABLE {t} SET IDENTIFIER FIELDS id")
      for s in statements(t, cat):
        print(s, flush=True)
        spark.sql(s)
    snaps = snapshots(spark, t)
    entry = {"snapshots": snaps, "rows": [], "whole_table_error": None}
    view = name.replace(".", "_")
    try:
      rows = change_rows(spark, cat, t, view + "_all")
      for r in rows:
        r["source"] = "direct"
      entry["rows"] = rows
      entry["direct_snapshots"] = [s["id"] for s in snaps]
    except Exception as e:  # what Spark refuses, recorded for the test
      entry["whole_table_error"] = f"{type(e).__name__}: {e}"[:500]
      # Spark's own changelog over the snapshots before the first delete
      # manifest (their ordinals are the whole table's)...
      prefix = []
      for s in snaps:
        if s["deletes"]:
          break
        prefix.append(s)
      direct = []
      if prefix:
        direct = change_rows(spark, cat, t, view + "_prefix", {"end-snapshot-id": prefix[-1]["id"]})
      for r in direct:
        r["source"] = "direct"
      # ...and of a copy-on-write twin replaying every snapshot.
      twin = t + "_twin"
      ddl = ", ".join(f"{f.name} {f.dataType.simpleString()}" + (" NOT NULL" if f.name == "id" else "")
                      for f in spark.table(t).schema.fields)
      spark.sql(f"CREATE TABLE {twin} ({ddl}) USING iceberg TBLPROPERTIES ("
                "'format-version'='2', 'write.delete.mode'='copy-on-write', 'write.update.mode'='copy-on-write', "
                "'write.merge.mode'='copy-on-write')")
      spark.sql(f"ALTER TABLE {twin} SET IDENTIFIER FIELDS id")
      same = " AND ".join(f"t.{c} <=> s.{c}" for c in spark.table(t).columns if c != "id")
      twin_of = {}
      for s in snaps:
        if s["operation"] == "replace":
          continue
        before = current(spark, twin)
        spark.sql(f"MERGE INTO {twin} t USING (SELECT * FROM {t} VERSION AS OF {s['id']}) s ON t.id = s.id "
                  f"WHEN MATCHED AND NOT ({same}) THEN UPDATE SET * "
                  "WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE THEN DELETE")
        after = current(spark, twin)
        if after != before:
          twin_of[after] = s["id"]
      twin_rows = change_rows(spark, cat, twin, view + "_twin")
      for r in twin_rows:
        r["_commit_snapshot_id"] = twin_of[r["_commit_snapshot_id"]]
        r["_change_ordinal"] = None  # the twin's, not the table's
        r["source"] = "twin"
      entry["rows"] = direct + twin_rows
      entry["direct_snapshots"] = [s["id"] for s in prefix]
    result[name] = entry
    print(f"{name}: {len(snaps)} snapshots, {len(entry['rows'])} change rows, error: {entry['whole_table_error']}", flush=True)
  with open(out_path, "w") as f:
    json.dump(result, f, indent=1, default=str)
  spark.stop()


def current(spark, t):
  """The snapshot id of t's main branch (None before the first)."""
  rows = spark.sql(f"SELECT snapshot_id FROM {t}.refs WHERE name = 'main'").collect()
  return rows[0].snapshot_id if rows else None


if __name__ == "__main__":
  main()
