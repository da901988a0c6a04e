"""The benchmark's anchor and checker for row-level changes (interop/bench-cdc.sh).

Usage:
  cdc_merge.py merge KEYS BATCH BATCHES WORKDIR
  cdc_merge.py check TABLE CHANGES KEYS WORKDIR

merge: Spark 3.5's MERGE INTO applies the changes `pipelines/cdc
--changes=mixed --keys=KEYS` generates (interop/cdc_mixed.py) to
lakehouse.bench.spark_accounts, a format v3 merge-on-read table: first the
load of KEYS rows (an INSERT, not timed), then BATCHES batches of BATCH
changes, as a stream's 20 s micro-batches would be. Each batch is written to
Parquet first (not timed); the timed part reads it, keeps each id's last
change and MERGEs it. Prints one JSON line per batch.

check: compares TABLE with the table the first CHANGES changes leave (the
model in interop/cdc_mixed.py), both ways with EXCEPT ALL, and prints one
JSON line with the rows missing from and extra in TABLE.
"""

import json
import os
import sys
import time

import pyarrow.parquet as pq
from pyspark.sql import SparkSession

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import cdc_mixed  # noqa: E402

COLUMNS = "id, owner, balance_cents, CAST(timestamp_micros(updated_at) AS TIMESTAMP_NTZ) AS updated_at, lsn"


def merge(spark, keys, batch, batches, workdir):
  spark.sql("CREATE NAMESPACE IF NOT EXISTS lakehouse.bench")
  spark.sql("DROP TABLE IF EXISTS lakehouse.bench.spark_accounts")
  spark.sql("""CREATE TABLE lakehouse.bench.spark_accounts
    (id BIGINT NOT NULL, owner STRING, balance_cents BIGINT, updated_at TIMESTAMP_NTZ, lsn BIGINT) USING iceberg
    TBLPROPERTIES ('format-version'='3', 'write.delete.mode'='merge-on-read',
                   'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')""")
  load = os.path.join(workdir, "load.parquet")
  pq.write_table(cdc_mixed.changes(0, keys, keys), load)
  spark.read.parquet(load).createOrReplaceTempView("load")
  spark.sql(f"INSERT INTO lakehouse.bench.spark_accounts SELECT {COLUMNS} FROM load")
  for b in range(batches):
    path = os.path.join(workdir, f"batch-{b}.parquet")
    start = keys + b * batch
    pq.write_table(cdc_mixed.changes(start, start + batch, keys), path)
    t0 = time.monotonic()
    spark.read.parquet(path).createOrReplaceTempView("changes")
    spark.sql(f"""MERGE INTO lakehouse.bench.spark_accounts t
      USING (SELECT op, {COLUMNS} FROM (
               SELECT *, row_number() OVER (PARTITION BY id ORDER BY lsn DESC) AS rn FROM changes) WHERE rn = 1) s
      ON t.id = s.id
      WHEN MATCHED AND s.op = 'd' THEN DELETE
      WHEN MATCHED THEN UPDATE SET owner = s.owner, balance_cents = s.balance_cents, updated_at = s.updated_at, lsn = s.lsn
      WHEN NOT MATCHED AND s.op != 'd' THEN INSERT (id, owner, balance_cents, updated_at, lsn)
        VALUES (s.id, s.owner, s.balance_cents, s.updated_at, s.lsn)""")
    seconds = time.monotonic() - t0
    os.remove(path)
    print(json.dumps({"batch": b, "changes": batch, "seconds": round(seconds, 3), "applied": start + batch}), flush=True)


def check(spark, table, changes, keys, workdir):
  path = os.path.join(workdir, "model.parquet")
  pq.write_table(cdc_mixed.final_state(changes, keys), path)
  spark.read.parquet(path).createOrReplaceTempView("model")
  model = spark.sql(f"SELECT {COLUMNS} FROM model")
  got = spark.table(table).select("id", "owner", "balance_cents", "updated_at", "lsn")
  missing = model.exceptAll(got).count()
  extra = got.exceptAll(model).count()
  print(json.dumps({"table": table, "changes": changes, "model_rows": model.count(), "missing": missing, "extra": extra}), flush=True)


def main():
  spark = SparkSession.builder.appName("bench: cdc").config("spark.sql.session.timeZone", "UTC").getOrCreate()
  cmd, args = sys.argv[1], sys.argv[2:]
  if cmd == "merge":
    merge(spark, int(args[0]), int(args[1]), int(args[2]), args[3])
  elif cmd == "check":
    check(spark, args[0], int(args[1]), int(args[2]), args[3])
  else:
    raise SystemExit(f"unknown command {cmd}")
  spark.stop()


if __name__ == "__main__":
  main()
