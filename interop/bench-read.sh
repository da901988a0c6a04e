#!/usr/bin/env bash
# Times a full scan of an Iceberg table, our icebergio.ReadRecords against
# pyiceberg and DuckDB, side by side in one run. taxigen makes a month of
# ROWS taxi trips; pyiceberg appends it (its default writer settings) to
# bench.taxi in an `icebeam serve` catalog; then, alternating, RUNS times:
#
#   icebeam   interop/goread --sum=total_amount: ReadRecords on prism, every
#             column as Arrow batches, rows counted and total_amount summed
#   pyiceberg table.scan().to_arrow(), then the same count and sum
#   duckdb    SELECT * FROM iceberg_scan('<current metadata.json>') fetched
#             as Arrow record batches, then the same count and sum
#
# each timed from process start to all rows read (the catalog look-up
# included), with its peak RSS, all reading every column. DuckDB's iceberg
# extension comes from PyPI (duckdb-extension-iceberg, pinned in
# interop/requirements.txt) and is LOADed from the installed wheel: this
# machine cannot reach DuckDB's extension repository, and nothing falls back.
# The script checks that all three read the same row count and sum, prints
# every run, and the medians, peak RSS and ratios.
#
#   interop/bench-read.sh             # 3,000,000 rows, RUNS=5
#   ROWS=300000 RUNS=3 interop/bench-read.sh
#
# Wrap it in `flock /tmp/bench.lock` on a shared machine.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
ROWS=${ROWS:-3000000}
RUNS=${RUNS:-5}
SUM_COLUMN=total_amount

bench_tools bench-read
INPUT="$OUT/yellow_tripdata_synthetic_${ROWS}_seed1.parquet"
[ -f "$INPUT" ] || "$BIN/taxigen" -rows "$ROWS" -seed 1 -month 2024-01 -out "$INPUT"

bench_catalog
export PYTHONDONTWRITEBYTECODE=1

"$VENV/bin/python" - "$CATALOG_URI" "$INPUT" <<'PY'
import sys
import pyarrow.parquet as pq
from pyiceberg.catalog import load_catalog
cat = load_catalog("lakehouse", type="rest", uri=sys.argv[1])
cat.create_namespace("bench")
data = pq.read_table(sys.argv[2])
tbl = cat.create_table("bench.taxi", schema=data.schema)
tbl.append(data)
files = list(tbl.scan().plan_files())
groups = sum(pq.ParquetFile(f.file.file_path.removeprefix("file://")).metadata.num_row_groups for f in files)
size = sum(f.file.file_size_in_bytes for f in files)
print(f"table bench.taxi: {sum(f.file.record_count for f in files)} rows, {len(data.schema)} columns, "
      f"{len(files)} data file(s), {groups} row groups, {size / 2**20:.0f} MiB (written by pyiceberg append)")
PY

cat > "$WORK/pyiceberg_scan.py" <<'PY'
import json, sys
import pyarrow.compute as pc
from pyiceberg.catalog import load_catalog
uri, ident, column = sys.argv[1:]
t = load_catalog("lakehouse", type="rest", uri=uri).load_table(ident).scan().to_arrow()
print(json.dumps({"rows": t.num_rows, "sum": pc.sum(t[column]).as_py()}))
PY

cat > "$WORK/duckdb_scan.py" <<'PY'
import json, sys
import pyarrow.compute as pc
sys.path.insert(0, sys.argv[4])
import duckdb_iceberg
uri, ident, column = sys.argv[1:4]
rows, total = 0, 0.0
location = duckdb_iceberg.metadata_location(uri, ident)
reader = duckdb_iceberg.connect().execute(f"SELECT * FROM iceberg_scan('{location}')").fetch_record_batch()
for batch in reader:
  rows += batch.num_rows
  total += pc.sum(batch.column(column)).as_py() or 0.0
print(json.dumps({"rows": rows, "sum": total}))
PY

# measure_scan NAME CMD...: "wall_seconds peak_MiB rows sum" of one run; its output
# goes to $OUT/read-NAME.log, its last line being the scan's JSON.
measure_scan() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$OUT/read-$name.time" "$@" > "$OUT/read-$name.log" 2> "$OUT/read-$name.err" \
    || { tail -30 "$OUT/read-$name.err" >&2; echo "bench-read: $name failed (log $OUT/read-$name.err)" >&2; exit 1; }
  local wall kb
  read -r wall kb < "$OUT/read-$name.time"
  echo "$wall $((kb / 1024)) $(tail -1 "$OUT/read-$name.log" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["rows"], repr(float(d["sum"])))')"
}

PEERS=(icebeam pyiceberg duckdb)
scan() {
  case $1 in
    icebeam) measure_scan icebeam "$BIN/goread" --catalog_uri="$CATALOG_URI" --table=bench.taxi --sum="$SUM_COLUMN" ;;
    pyiceberg) measure_scan pyiceberg "$VENV/bin/python" "$WORK/pyiceberg_scan.py" "$CATALOG_URI" bench.taxi "$SUM_COLUMN" ;;
    duckdb) measure_scan duckdb "$VENV/bin/python" "$WORK/duckdb_scan.py" "$CATALOG_URI" bench.taxi "$SUM_COLUMN" "$ROOT/interop/tests" ;;
  esac
}

duckdb_version=$("$VENV/bin/python" -c 'import duckdb, duckdb_extension_iceberg as e, importlib.metadata as m; print(duckdb.__version__, "iceberg extension", m.version("duckdb_extension_iceberg"))')
echo "full scan of $ROWS rows, sum of $SUM_COLUMN; $RUNS run(s) each, alternating; duckdb $duckdb_version (iceberg_scan); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
RESULTS="$WORK/results"
: > "$RESULTS"
for i in $(seq "$RUNS"); do
  line="run $i:"
  for who in "${PEERS[@]}"; do
    read -r wall mib rows sum < <(scan "$who")
    echo "$who $wall $mib $rows $sum" >> "$RESULTS"
    line+=$(printf " %s %6.2fs %5d MiB |" "$who" "$wall" "$mib")
  done
  echo "${line% |}"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$RESULTS" "$ROWS" <<'PY'
import math, statistics, sys
runs = {}
for line in open(sys.argv[1]):
  who, wall, mib, rows, s = line.split()
  runs.setdefault(who, []).append((float(wall), int(mib), int(rows), float(s)))
want = int(sys.argv[2])
ok = True
ref = runs["icebeam"][0][3]
for who, rs in runs.items():
  for _, _, rows, s in rs:
    if rows != want or not math.isclose(s, ref, rel_tol=1e-9):
      print(f"bench-read: {who} read {rows} rows, sum {s!r}; want {want} rows, sum {ref!r}")
      ok = False
if ok:
  print(f"all runs read {want} rows, sum of total_amount {ref:.2f}")
med = {who: statistics.median(w for w, _, _, _ in rs) for who, rs in runs.items()}
peak = {who: statistics.median(m for _, m, _, _ in rs) for who, rs in runs.items()}
n = len(runs["icebeam"])
print(f"median of {n}:")
for who in runs:
  print(f"  {who:9s} {med[who]:6.2f}s  {peak[who]:5.0f} MiB peak RSS  icebeam/{who} = {med['icebeam'] / med[who]:.2f}x")
print(f"goals: faster than pyiceberg (icebeam/pyiceberg < 1: {med['icebeam'] / med['pyiceberg']:.2f}), "
      f"within 1.5x DuckDB (icebeam/duckdb <= 1.5: {med['icebeam'] / med['duckdb']:.2f})")
sys.exit(0 if ok else 1)
PY
