"""Read Iceberg tables through Spark and write each one as JSON lines.

Usage: dump_tables.py <catalog_name> <out_dir> <namespace.table>...

Writes <out_dir>/<namespace.table>.jsonl: a first line {"schema": [...]} with
each column's name, Iceberg type name and whether it is required, then one
JSON object per row. Floats are written with repr, so they round-trip exactly;
dates as ISO strings. The interop checks compare these with pyiceberg's and
iceberg-go's reads of the same tables.
"""

import datetime
import json
import os
import sys

from pyspark.sql import SparkSession

# Spark type names that differ from Iceberg's for the same type.
ICEBERG_TYPE = {"bigint": "long", "int": "int", "smallint": "int", "tinyint": "int"}


def plain(value):
  """JSON for what json cannot write: dates and times as ISO strings, bytes
  (in metadata tables' bounds) as hex."""
  if isinstance(value, datetime.date):
    return value.isoformat()
  if isinstance(value, (bytes, bytearray)):
    return value.hex()
  return value


def main():
  catalog, out_dir, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
  spark = SparkSession.builder.appName("interop: dump tables").getOrCreate()
  for name in tables:
    df = spark.table(f"`{catalog}`.{name}")
    schema = [
        {
            "name": f.name,
            "type": ICEBERG_TYPE.get(f.dataType.simpleString(), f.dataType.simpleString()),
            "required": not f.nullable,
        }
        for f in df.schema.fields
    ]
    path = os.path.join(out_dir, name + ".jsonl")
    with open(path + ".part", "w") as out:
      out.write(json.dumps({"schema": schema}) + "\n")
      for row in df.collect():
        out.write(json.dumps({k: plain(v) for k, v in row.asDict(recursive=True).items()}, default=plain) + "\n")
    os.replace(path + ".part", path)
    print(f"dumped {name} to {path}")
  spark.stop()


if __name__ == "__main__":
  main()
