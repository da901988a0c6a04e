#!/usr/bin/env bash
# Times the seed's PySpark job (local mode) against our taxi pipeline on the
# same generated month, side by side in one run, both writing through the same
# `icebeam serve` REST catalog, each timed from process start to committed
# table. Prints wall time, peak RSS of the largest process, and the ratio.
#
#   interop/bench-spark.sh [ROWS]     # default 3,000,000 rows (one month)
#   RUNS=3 interop/bench-spark.sh     # alternate RUNS times, keep the best of each
#
# Spark runs as local[2] with a 2 GiB driver (SPARK_MASTER, SPARK_DRIVER_MEMORY)
# and our pipeline on prism, both with the machine's two cores. Installs into
# .cache/interop/ like run.sh; the input is cached in .cache/interop/bench/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
ROWS=${1:-3000000}
RUNS=${RUNS:-1}

bench_tools bench-spark spark
INPUT="$OUT/yellow_tripdata_synthetic_${ROWS}_seed1.parquet"
[ -f "$INPUT" ] || "$BIN/taxigen" -rows "$ROWS" -seed 1 -out "$INPUT"

bench_catalog

# committed NS: the current snapshot's row count, proving the run committed.
committed() {
  "$BIN/goscan" --catalog_uri="$CATALOG_URI" --table="$1.yellow_trips_analyzed" | tail -n +2 | wc -l
}

echo "input: $INPUT ($ROWS rows, $(du -h "$INPUT" | cut -f1)); $RUNS run(s) each, alternating; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
best_spark=; best_ours=
for i in $(seq "$RUNS"); do
  read -r w_spark m_spark < <(measure spark interop/spark/submit.sh "$CATALOG_URI" interop/spark/taxi_to_iceberg.py \
    "$INPUT" lakehouse spark_nyc_taxi yellow_trips_analyzed)
  read -r w_ours m_ours < <(measure ours "$BIN/taxi" --input="$INPUT" --catalog_uri="$CATALOG_URI")
  printf "run %d: spark (local[2]) %7.2fs %5d MiB peak | icebeam taxi %6.2fs %5d MiB peak | %s vs %s rows\n" \
    "$i" "$w_spark" "$m_spark" "$w_ours" "$m_ours" "$(committed spark_nyc_taxi)" "$(committed nyc_taxi)"
  best_spark=$(python3 -c "print(min($w_spark, ${best_spark:-1e9}))")
  best_ours=$(python3 -c "print(min($w_ours, ${best_ours:-1e9}))")
done
# The same exact comparison as the suite's check a, on the bench's month.
PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" - "$CATALOG_URI" <<'PY'
import sys
sys.path.insert(0, "interop/tests")
import tables
from pyiceberg.catalog import load_catalog
cat = load_catalog("lakehouse", type="rest", uri=sys.argv[1])
spark, ours = (tables.from_pyiceberg(cat, f"{ns}.yellow_trips_analyzed") for ns in ("spark_nyc_taxi", "nyc_taxi"))
problems = tables.diff(spark, ours, limit=5)
print("same rows as Spark, to the bit" if not problems else "differences from Spark:\n  " + "\n  ".join(problems))
PY
python3 -c "print(f'best of $RUNS: spark {$best_spark:.2f}s, icebeam {$best_ours:.2f}s, ratio spark/icebeam = {$best_spark/$best_ours:.1f}x (goal >= 10x)')"
