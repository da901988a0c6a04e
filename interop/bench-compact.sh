#!/usr/bin/env bash
# Times compaction of a streaming-shaped table, ours against Spark's, side by
# side in one run: internal/cmd/smallfiles makes two identical tables of
# FILES small files (ROWS_PER_FILE rows each, FILES_PER_COMMIT per append, as a
# stream leaves them) in one `icebeam serve` catalog; then pipelines/maintain
# --rewrite_data_files (prism) compacts one and Spark's
# CALL system.rewrite_data_files (local[2]) the other, each timed from
# process start to committed table, with its peak RSS. Both use their
# defaults (512 MiB target, groups of at least 5 files). Each run makes fresh
# tables; the script prints every run, the medians and the ratio, and checks
# that both tables hold the same rows afterwards.
#
#   interop/bench-compact.sh                  # 1,000 files of 10,000 rows (10 M rows), RUNS=3
#   FILES=200 RUNS=5 interop/bench-compact.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
FILES=${FILES:-1000}
ROWS_PER_FILE=${ROWS_PER_FILE:-10000}
FILES_PER_COMMIT=${FILES_PER_COMMIT:-10}
RUNS=${RUNS:-3}

bench_tools bench-compact spark
bench_catalog

# shape TABLE: "rows files" of the table's current snapshot, read by pyiceberg.
shape() {
  PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" - "$CATALOG_URI" "$1" <<'PY'
import sys
from pyiceberg.catalog import load_catalog
t = load_catalog("lakehouse", type="rest", uri=sys.argv[1]).load_table(sys.argv[2])
files = list(t.scan().plan_files())
print(sum(f.file.record_count for f in files), len(files))
PY
}

echo "input: $FILES files x $ROWS_PER_FILE rows ($((FILES * ROWS_PER_FILE)) rows), $FILES_PER_COMMIT files per append; $RUNS run(s), alternating; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
spark_times=(); our_times=()
for i in $(seq "$RUNS"); do
  for who in ours spark; do
    "$BIN/smallfiles" --catalog_uri="$CATALOG_URI" --table="bench.${who}_$i" --files="$FILES" \
      --rows_per_file="$ROWS_PER_FILE" --files_per_commit="$FILES_PER_COMMIT" > "$OUT/smallfiles-$who.log" 2>&1
  done
  read -r rows_before files_before < <(shape "bench.ours_$i")
  read -r w_ours m_ours < <(measure compact-ours "$BIN/maintain" --catalog_uri="$CATALOG_URI" \
    --table="bench.ours_$i" --rewrite_data_files)
  read -r w_spark m_spark < <(measure compact-spark interop/spark/submit.sh "$CATALOG_URI" interop/spark/run_sql.py \
    "CALL lakehouse.system.rewrite_data_files(table => 'bench.spark_$i')")
  read -r rows_ours files_ours < <(shape "bench.ours_$i")
  read -r rows_spark files_spark < <(shape "bench.spark_$i")
  printf "run %d: %d rows in %d files -> icebeam maintain %6.2fs %5d MiB peak, %d rows in %d files | spark %6.2fs %5d MiB peak, %d rows in %d files\n" \
    "$i" "$rows_before" "$files_before" "$w_ours" "$m_ours" "$rows_ours" "$files_ours" "$w_spark" "$m_spark" "$rows_spark" "$files_spark"
  if [ "$rows_ours" != "$rows_before" ] || [ "$rows_spark" != "$rows_before" ]; then
    echo "bench-compact: row counts changed" >&2; exit 1
  fi
  our_times+=("$w_ours"); spark_times+=("$w_spark")
done
# The same rows in both compacted tables, compared as multisets.
PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" - "$CATALOG_URI" "bench.ours_$RUNS" "bench.spark_$RUNS" <<'PY'
import sys
from pyiceberg.catalog import load_catalog
cat = load_catalog("lakehouse", type="rest", uri=sys.argv[1])
a, b = (cat.load_table(n).scan().to_arrow().sort_by("seq") for n in sys.argv[2:])
print("compacted tables hold the same rows" if a.equals(b) else "compacted tables DIFFER")
sys.exit(0 if a.equals(b) else 1)
PY
python3 - "${our_times[*]}" "${spark_times[*]}" <<'PY'
import statistics, sys
ours, spark = ([float(x) for x in s.split()] for s in sys.argv[1:])
mo, ms = statistics.median(ours), statistics.median(spark)
print(f"median of {len(ours)}: icebeam maintain {mo:.2f}s, spark rewrite_data_files {ms:.2f}s; spark/icebeam = {ms / mo:.1f}x (goal >= 5x)")
PY
