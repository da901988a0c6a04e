"""The independent reader of scripts/bench-debezium.sh: Spark 3.5 with
Iceberg's runtime 1.10.1 (interop/spark/submit.sh; catalog lakehouse), which
applies both sides' deletes (equality deletes of Flink's v2 upsert tables,
deletion vectors of our v3 tables).

  submit.sh URI dbz_spark.py check OUT.json NS TABLE:BALANCE,... [WHERE]
      Per table: [rows, sum(BALANCE), sum(mtime_us)] (over the rows WHERE
      holds, e.g. "mtime_us >= 123"), into OUT.json, the figures
      scripts/bench-debezium.sh's PostgreSQL query gives.
  submit.sh URI dbz_spark.py readcost OUT.json REPEATS NS1,NS2 TABLE:BALANCE,...
      Per namespace and table: the figures of check; its data and delete
      files; a full scan (every column of every live row, written to Spark's
      noop sink) timed REPEATS times after one warm-up, the median kept; then
      Spark's rewrite_data_files of every file (rewrite-all, dangling deletes
      removed: the same rows with no deletes left), and the same again.
"""

import json
import statistics
import sys
import time

from pyspark.sql import SparkSession

CAT = "lakehouse"


def figures(spark, table, bal, where):
  w = f" WHERE {where}" if where else ""
  # A decimal sum: PostgreSQL's is exact, and 100,000 epoch-µs stamps
  # overflow a bigint.
  r = spark.sql(f"SELECT count(*), coalesce(sum({bal}), 0), coalesce(sum(CAST(mtime_us AS DECIMAL(38, 0))), 0) "
                f"FROM {table}{w}").first()
  return [int(r[0]), int(r[1]), int(r[2])]


def files(spark, table):
  data = spark.sql(f"SELECT count(*) FROM {table}.data_files").first()[0]
  deletes = spark.sql(f"SELECT count(*) FROM {table}.delete_files").first()[0]
  return int(data), int(deletes)


def scan(spark, table, repeats):
  spark.table(table).write.format("noop").mode("overwrite").save()
  times = []
  for _ in range(repeats):
    t0 = time.perf_counter()
    spark.table(table).write.format("noop").mode("overwrite").save()
    times.append(time.perf_counter() - t0)
  return statistics.median(times)


def specs(arg):
  return [s.split(":", 1) for s in arg.split(",")]


def main(argv):
  spark = SparkSession.builder.appName("bench-debezium").getOrCreate()
  spark.sparkContext.setLogLevel("WARN")
  cmd, out = argv[0], argv[1]
  if cmd == "check":
    ns, tabs, where = argv[2], specs(argv[3]), (argv[4] if len(argv) > 4 else "")
    res = {t: figures(spark, f"{CAT}.{ns}.{t}", bal, where) for t, bal in tabs}
  elif cmd == "readcost":
    repeats, nss, tabs = int(argv[2]), argv[3].split(","), specs(argv[4])
    res = {}
    for ns in nss:
      res[ns] = {}
      for t, bal in tabs:
        name = f"{CAT}.{ns}.{t}"
        v = {"figures": figures(spark, name, bal, "")}
        v["rows"] = v["figures"][0]
        d, x = files(spark, name)
        v["before"] = {"data_files": d, "delete_files": x, "scan_s": scan(spark, name, repeats)}
        t0 = time.perf_counter()
        spark.sql(f"CALL {CAT}.system.rewrite_data_files(table => '{ns}.{t}', "
                  "options => map('rewrite-all', 'true', 'remove-dangling-deletes', 'true'))").collect()
        v["compact_s"] = time.perf_counter() - t0
        d, x = files(spark, name)
        v["after"] = {"data_files": d, "delete_files": x, "scan_s": scan(spark, name, repeats)}
        v["figures_after"] = figures(spark, name, bal, "")
        res[ns][t] = v
        print(f"readcost {ns}.{t}: {json.dumps(v)}", flush=True)
  else:
    sys.exit(f"dbz_spark.py: unknown command {cmd}")
  json.dump(res, open(out, "w"))
  spark.stop()


if __name__ == "__main__":
  main(sys.argv[1:])
