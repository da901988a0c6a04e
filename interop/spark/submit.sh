#!/usr/bin/env bash
# Runs a PySpark script in local mode against an Iceberg REST catalog, with
# the catalog properties of the seed tutorial's step 4 (iceberg-flags.yaml)
# adapted to a local catalog:
#
#   interop/spark/submit.sh CATALOG_URI SCRIPT.py [ARGS...]
#   interop/spark/submit.sh http://127.0.0.1:8181 interop/spark/taxi_to_iceberg.py \
#       in.parquet lakehouse spark_nyc_taxi yellow_trips_analyzed
#
# Kept from step 4: the SparkCatalog class, type=rest, uri, and the Iceberg SQL
# extensions. Dropped because they are Google-specific: io-impl=GCSFileIO (the
# local catalog's warehouse is file://, which Iceberg's default FileIO reads),
# header.x-goog-user-project and rest.auth.type=GoogleAuthManager (no auth),
# and warehouse=bl://... (the catalog's /v1/config supplies its own default).
# The catalog is named lakehouse (the tutorial's OUTPUT_CATALOG_NAME) unless
# SPARK_CATALOG_NAME says otherwise.
#
# Spark runs as local[2] with a 2 GiB driver by default (SPARK_MASTER,
# SPARK_DRIVER_MEMORY) because the machines this runs on have two cores shared
# with other work.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../env.sh"
if [ $# -lt 2 ]; then
  echo "usage: $0 CATALOG_URI SCRIPT.py [ARGS...]" >&2
  exit 2
fi
uri=$1 script=$2
shift 2
ensure_python
ensure_jar
cat=${SPARK_CATALOG_NAME:-lakehouse}
export PYSPARK_PYTHON="$VENV/bin/python"
exec "$VENV/bin/spark-submit" \
  --master "${SPARK_MASTER:-local[2]}" \
  --driver-memory "${SPARK_DRIVER_MEMORY:-2g}" \
  --jars "$JAR" \
  --conf spark.ui.enabled=false \
  --conf "spark.sql.catalog.$cat=org.apache.iceberg.spark.SparkCatalog" \
  --conf "spark.sql.catalog.$cat.type=rest" \
  --conf "spark.sql.catalog.$cat.uri=$uri" \
  --conf spark.sql.extensions=org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions \
  "$script" "$@"
