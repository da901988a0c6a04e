"""Spark's side of the catalog checks: CTAS, RTAS and views through the catalog.

Usage: catalog_checks.py <catalog_name> <namespace> <rows.json> <out.json> [table...]

Creates, in <namespace>: ctas, a table made by CREATE TABLE ... PARTITIONED BY
(bucket(4, id), days(ts)) AS SELECT (Spark stages the create and commits it in
one transaction); rtas, made by CREATE OR REPLACE ... PARTITIONED BY
(category) AS SELECT and then REPLACE TABLE ... PARTITIONED BY (days(ts)) AS
SELECT of the rows with amount > 10; and big, a view on ctas (amount > 10),
then replaced (amount > 20). Writes what Spark reads back of each to out.json:
{"ctas": [...], "rtas": [...], "view": [...]}, rows ordered by id, timestamps
as ISO strings; and what it reads of each further table named, under its
name.
"""

import json
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def rows(df):
  # Timestamps as UTC wall-clock text, whatever the Python process's zone.
  if "ts" in df.columns:
    df = df.withColumn("ts", F.date_format("ts", "yyyy-MM-dd'T'HH:mm:ss"))
  return [r.asDict() for r in df.orderBy("id").collect()]


def main():
  cat, ns, rows_path, out_path, more = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
  spark = SparkSession.builder.appName("interop: catalog checks").getOrCreate()
  spark.conf.set("spark.sql.session.timeZone", "UTC")
  with open(rows_path) as f:
    src = json.load(f)
  df = spark.createDataFrame(
      [(r["id"], r["ts"], r["category"], r["amount"]) for r in src],
      "id bigint, ts string, category string, amount double").withColumn("ts", F.to_timestamp("ts"))
  df.createOrReplaceTempView("src")
  t = f"`{cat}`.{ns}"
  spark.sql(f"CREATE NAMESPACE IF NOT EXISTS {t}")
  spark.sql(f"CREATE TABLE {t}.ctas USING iceberg PARTITIONED BY (bucket(4, id), days(ts)) AS SELECT * FROM src")
  spark.sql(f"CREATE OR REPLACE TABLE {t}.rtas USING iceberg PARTITIONED BY (category) AS SELECT * FROM src")
  spark.sql(f"REPLACE TABLE {t}.rtas USING iceberg PARTITIONED BY (days(ts)) AS SELECT * FROM src WHERE amount > 10")
  spark.sql(f"CREATE VIEW {t}.big AS SELECT id, amount FROM {t}.ctas WHERE amount > 10")
  spark.sql(f"CREATE OR REPLACE VIEW {t}.big AS SELECT id, amount FROM {t}.ctas WHERE amount > 20")
  out = {
      "ctas": rows(spark.table(f"{t}.ctas")),
      "rtas": rows(spark.table(f"{t}.rtas")),
      "view": rows(spark.sql(f"SELECT * FROM {t}.big")),
  }
  for name in more:
    out[name] = rows(spark.table(f"{t}.{name}"))
  with open(out_path, "w") as f:
    json.dump(out, f)
  spark.stop()


if __name__ == "__main__":
  main()
