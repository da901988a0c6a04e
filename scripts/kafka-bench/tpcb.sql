-- pgbench's built-in tpcb-like script (PostgreSQL 15), each UPDATE also
-- stamping mtime_us with the source clock (epoch µs) that
-- scripts/bench-debezium.sh measures latency from. Run with -s SCALE:
-- custom scripts do not read the scale from pgbench_branches.
\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta, mtime_us = (extract(epoch FROM clock_timestamp()) * 1000000)::bigint WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta, mtime_us = (extract(epoch FROM clock_timestamp()) * 1000000)::bigint WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta, mtime_us = (extract(epoch FROM clock_timestamp()) * 1000000)::bigint WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
