#!/usr/bin/env bash
# Times the taxi pipeline end to end (process start to committed Iceberg table)
# against DuckDB running the same aggregation on the same file, side by side in
# one run, and reports wall time, peak memory and the ratio.
#
#   ./scripts/bench-taxi.sh [ROWS]      # default 3,000,000 rows (one month)
#
# Everything it needs is installed into .cache/ (git-ignored): DuckDB from PyPI
# in a virtualenv, the generated input, and the binaries.
set -euo pipefail
cd "$(dirname "$0")/.."
ROWS=${1:-3000000}
RUNS=${RUNS:-3}
CACHE=.cache/bench
mkdir -p "$CACHE"

if [ ! -x "$CACHE/venv/bin/python" ]; then
  python3 -m venv "$CACHE/venv"
  "$CACHE/venv/bin/pip" install --quiet duckdb==2.0.1
fi

CGO_ENABLED=0 go build -trimpath -o "$CACHE/taxi" ./pipelines/taxi
go build -o "$CACHE/taxigen" ./internal/cmd/taxigen
INPUT="$CACHE/yellow_tripdata_synthetic_${ROWS}.parquet"
[ -f "$INPUT" ] || "$CACHE/taxigen" -rows "$ROWS" -out "$INPUT"

cat > "$CACHE/duckdb_taxi.py" <<'PY'
import sys, duckdb
src, out = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.execute(f"""
COPY (
  SELECT CAST(tpep_pickup_datetime AS DATE) AS trip_date, payment_type,
         count(*) AS total_trips, sum(passenger_count) AS total_passengers,
         round(avg(trip_distance), 2) AS avg_distance, round(avg(fare_amount), 2) AS avg_fare,
         round(avg(round(tip_amount / fare_amount * 100, 2)), 2) AS avg_tip_percentage,
         round(sum(total_amount), 2) AS total_revenue
  FROM read_parquet('{src}')
  WHERE trip_distance > 0 AND fare_amount > 0 AND passenger_count > 0
  GROUP BY ALL ORDER BY trip_date, payment_type
) TO '{out}' (FORMAT parquet)""")
print(con.execute(f"SELECT count(*) FROM read_parquet('{out}')").fetchone()[0], "groups")
PY

# measure NAME CMD...: wall seconds and peak RSS (MiB) of one run.
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$CACHE/time.$name" "$@" > "$CACHE/out.$name" 2>&1 \
    || { cat "$CACHE/out.$name"; echo "$name failed" >&2; exit 1; }
  read -r wall kb < "$CACHE/time.$name"
  echo "$wall $((kb / 1024))"
}

echo "input: $INPUT ($ROWS rows, $(du -h "$INPUT" | cut -f1)); $RUNS runs each, alternating"
best_ours=; best_duck=
for i in $(seq "$RUNS"); do
  rm -rf "$CACHE/lakehouse"
  read -r w_ours m_ours < <(measure ours "$CACHE/taxi" --input="$INPUT" --local_dir="$CACHE/lakehouse")
  read -r w_duck m_duck < <(measure duckdb "$CACHE/venv/bin/python" "$CACHE/duckdb_taxi.py" "$INPUT" "$CACHE/duckdb_out.parquet")
  printf "run %d: icebeam taxi %6.2fs %5d MiB peak | duckdb %6.2fs %5d MiB peak\n" "$i" "$w_ours" "$m_ours" "$w_duck" "$m_duck"
  best_ours=$(python3 -c "print(min(x for x in [$w_ours, ${best_ours:-1e9}]))")
  best_duck=$(python3 -c "print(min(x for x in [$w_duck, ${best_duck:-1e9}]))")
done
python3 -c "print(f'best of $RUNS: icebeam {$best_ours:.2f}s, duckdb {$best_duck:.2f}s, ratio icebeam/duckdb = {$best_ours/$best_duck:.2f}x (target <= 2x)')"
