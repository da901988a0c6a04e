"""Read v3 tables through Spark with their row lineage, as JSON lines.

Usage: row_ids.py <catalog_name> <out_dir> <namespace.table>...

Writes <out_dir>/<namespace.table>.rows.jsonl: one JSON object per row, the
table's columns and the metadata columns _row_id and
_last_updated_sequence_number, which Spark computes from each data file's
first_row_id (or the manifest's it inherits) and the row's position.
"""

import json
import os
import sys

from pyspark.sql import SparkSession


def main():
  catalog, out_dir, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
  spark = SparkSession.builder.appName("interop: row ids").getOrCreate()
  for name in tables:
    df = spark.table(f"`{catalog}`.{name}").select("*", "_row_id", "_last_updated_sequence_number")
    path = os.path.join(out_dir, name + ".rows.jsonl")
    with open(path + ".part", "w") as out:
      for row in df.collect():
        out.write(json.dumps(row.asDict()) + "\n")
    os.replace(path + ".part", path)
    print(f"{name}: {path}")
  spark.stop()


if __name__ == "__main__":
  main()
