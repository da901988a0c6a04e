"""Run Spark SQL statements through the catalog, one per argument.

Usage: run_sql.py <statement>...

The catalog is the one interop/spark/submit.sh configures (lakehouse).
"""

import sys

from pyspark.sql import SparkSession


def main():
  spark = SparkSession.builder.appName("interop: sql").getOrCreate()
  for statement in sys.argv[1:]:
    print(statement)
    spark.sql(statement)
  spark.stop()


if __name__ == "__main__":
  main()
