"""Helpers of scripts/bench-debezium.sh, beside bench.py (whose catalog
calls, /usr/bin/time parsing and formatting they reuse); run with bench.py's
venv (pyiceberg, pyarrow).

  dbz.py state URI NS TABLES
      The end state of the tables NS.T (TABLES a comma list): per table its
      snapshots, data and delete files, and the timestamp-ms of the first
      snapshot whose totals (records, data files, delete files, position and
      equality deletes) equal the current one's: when the end state became
      visible. visible_ms is the latest of them, as JSON.
  dbz.py seen URI NS TABLES WANT TIMEOUT_S PID...
      Polls every second until, for every table, a row whose mtime_us is at
      least WANT's (a JSON object table -> the last mtime_us PostgreSQL wrote)
      is in a data file some snapshot added (read straight from the Parquet
      files, new snapshots only); exit 0 then, 2 if a PID exited before, 3
      after TIMEOUT_S. Prints what it saw, as JSON.
  dbz.py latency URI NS TABLES T0_US HISTORY.csv
      Per source transaction (a line of HISTORY.csv: aid, tid, bid and its
      start, epoch µs, from pgbench_history, which pgbench writes in each):
      when its three changes are all visible, minus its start. A change of key
      K that began at H is visible in the first snapshot that added a row of K
      with mtime_us >= H: its own row, or a later one of the same key that
      replaced it in the same commit. p50, p99, max, as JSON.
  dbz.py compare PG.json SPARK.json
      Exit 0 if every table's rows and sums equal PostgreSQL's; prints the
      differences.
  dbz.py readcost DIR DURATION_S REPEATS RC
      DIR/spark.json (dbz_spark.py readcost) checked against DIR/pg.json,
      into DIR/readcost.json with the run's parameters (RC 0: every change
      was seen landed before the systems were stopped).
  dbz.py result DIR
      One run's figures from DIR/run.json and the files beside it, into
      DIR/result.json; prints one line.
  dbz.py report RUNS_DIR TITLE
      Every run, then the medians per system and mode, as markdown.
"""

import json
import os
import sys
import time
import urllib.error
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

TOTALS = ("total-records", "total-data-files", "total-delete-files", "total-position-deletes",
          "total-equality-deletes")


def meta_or_none(uri, table):
  try:
    return bench.metadata(uri, table)
  except urllib.error.HTTPError as e:
    if e.code == 404:
      return None
    raise


def state(uri, ns, tables):
  out, vis = {}, None
  for t in tables.split(","):
    meta = meta_or_none(uri, f"{ns}.{t}")
    if meta is None:
      out[t] = None
      continue
    snaps = bench.snapshots(meta)
    cur = next((s for s in snaps if s["snapshot-id"] == meta.get("current-snapshot-id")), None)
    key = lambda s: tuple(s["summary"].get(k, "0") for k in TOTALS)
    first = next((s for s in snaps if cur and key(s) == key(cur)), None)
    out[t] = {"snapshots": len(snaps), "visible_ms": first and first["timestamp-ms"],
              "format_version": meta.get("format-version"),
              **({k: int(cur["summary"].get(k, 0)) for k in TOTALS} if cur else {})}
    if first:
      vis = max(vis or 0, first["timestamp-ms"])
  return {"visible_ms": vis, "tables": out}


class Reader:
  """The data files each snapshot of a table added, read once."""

  def __init__(self, uri):
    from pyiceberg.catalog.rest import RestCatalog

    self.cat = RestCatalog("bench", uri=uri)
    self.done = {}  # table -> snapshot ids read

  def added(self, table, cols=("mtime_us",)):
    """Yields (snapshot timestamp-ms, pyarrow table of cols) per data file a
    snapshot not read before added."""
    import pyarrow.parquet as pq
    from pyiceberg.exceptions import NoSuchTableError
    from pyiceberg.manifest import ManifestContent, ManifestEntryStatus

    try:
      tbl = self.cat.load_table(table)
    except NoSuchTableError:
      return
    seen = self.done.setdefault(table, set())
    for snap in tbl.metadata.snapshots:
      if snap.snapshot_id in seen:
        continue
      seen.add(snap.snapshot_id)
      for mf in snap.manifests(tbl.io):
        if mf.added_snapshot_id != snap.snapshot_id or mf.content != ManifestContent.DATA:
          continue
        for e in mf.fetch_manifest_entry(tbl.io, discard_deleted=True):
          if e.status != ManifestEntryStatus.ADDED or e.snapshot_id != snap.snapshot_id:
            continue
          path = urllib.parse.urlparse(e.data_file.file_path).path
          yield snap.timestamp_ms, pq.read_table(path, columns=list(cols))


def seen(uri, ns, tables, want, timeout_s, *pids):
  import pyarrow.compute as pc

  want = json.loads(want)
  r, got = Reader(uri), {t: None for t in tables.split(",")}
  deadline = time.time() + float(timeout_s)
  while True:
    for t in got:
      for _, rows in r.added(f"{ns}.{t}"):
        m = pc.max(rows.column("mtime_us")).as_py()
        if m is not None and (got[t] is None or m > got[t]):
          got[t] = m
    if all(got[t] is not None and got[t] >= want[t] for t in got):
      print(json.dumps({"seen": got, "seen_ms": int(time.time() * 1000)}))
      return 0
    if not all(bench.alive(p) for p in pids):
      print(json.dumps({"exited": True, "seen": got}))
      return 2
    if time.time() > deadline:
      print(json.dumps({"timeout": True, "seen": got, "want": want}))
      return 3
    time.sleep(1)


KEYS = {"pgbench_accounts": "aid", "pgbench_tellers": "tid", "pgbench_branches": "bid"}


def latency(uri, ns, tables, t0_us, history):
  import bisect
  import csv

  r, t0_us = Reader(uri), int(t0_us)
  vis = {}  # table -> key -> sorted [(mtime_us, snapshot ms)]
  for t in tables.split(","):
    by_key = vis.setdefault(t, {})
    for ts_ms, rows in r.added(f"{ns}.{t}", (KEYS[t], "mtime_us")):
      for k, m in zip(rows.column(0).to_pylist(), rows.column(1).to_pylist()):
        if m is not None and m >= t0_us:
          by_key.setdefault(k, []).append((m, ts_ms))
    for v in by_key.values():
      v.sort()
  lats, missing = [], 0
  for aid, tid, bid, start in csv.reader(open(history)):
    start, worst = int(start), 0.0
    for t, k in (("pgbench_accounts", aid), ("pgbench_tellers", tid), ("pgbench_branches", bid)):
      if t not in vis:
        continue
      v = vis[t].get(int(k), [])
      i = bisect.bisect_left(v, (start, -1))
      if i == len(v):
        worst = None
        break
      worst = max(worst, v[i][1] - start / 1000)
    if worst is None:
      missing += 1
    else:
      lats.append(worst)
  if not lats:
    return {"changes": 0, "missing": missing}
  lats.sort()
  q = lambda x: lats[min(len(lats) - 1, int(x * len(lats)))]
  return {"transactions": len(lats), "changes": 3 * len(lats), "missing": missing, "p50_ms": q(0.5),
          "p99_ms": q(0.99), "max_ms": lats[-1], "min_ms": lats[0]}


def compare(pg_path, spark_path):
  pg, sp = bench.load(pg_path, {}), bench.load(spark_path, {})
  bad = [f"{t}: PostgreSQL {pg[t]}, Iceberg {sp.get(t)}" for t in pg if sp.get(t) != pg[t]]
  for b in bad:
    print(b)
  return 1 if bad or not pg else 0


def readcost(d, duration_s, repeats, rc):
  pg = bench.load(os.path.join(d, "pg.json"))
  sp = bench.load(os.path.join(d, "spark.json"))
  for ns, tabs in sp.items():
    for t, v in tabs.items():
      v["equal"] = v["figures"] == pg[t] and v["figures_after"] == pg[t]
      if not v["equal"]:
        print(f"readcost: {ns}.{t} differs: PostgreSQL {pg[t]}, Iceberg {v['figures']}, compacted {v['figures_after']}",
              file=sys.stderr)
  systems = {ns.rsplit("_readcost", 1)[0]: tabs for ns, tabs in sp.items()}
  json.dump({"duration_s": int(duration_s), "repeats": int(repeats), "landed": rc == "0", "systems": systems},
            open(os.path.join(d, "readcost.json"), "w"), indent=1)


def result(d):
  run = bench.load(os.path.join(d, "run.json"))
  res = dict(run)
  n = run["changes"]
  st = bench.load(os.path.join(d, "state.json"), {})
  res["complete"] = run.get("equal") == 1
  res["snapshots"] = sum((v or {}).get("snapshots", 0) for v in st.get("tables", {}).values())
  res["delete_files"] = sum((v or {}).get("total-delete-files", 0) for v in st.get("tables", {}).values())
  if run["mode"] == "throughput" and st.get("visible_ms"):
    res["seconds"] = (st["visible_ms"] - run["start_ms"]) / 1000
    res["changes_per_s"] = n / res["seconds"] if res["seconds"] > 0 else None
  res.update(bench.resources(d, run, n))
  lat = bench.load(os.path.join(d, "latency.json"))
  if lat and lat.get("changes"):
    res.update({"lat_p50_s": lat["p50_ms"] / 1000, "lat_max_s": lat["max_ms"] / 1000,
                "lat_transactions": lat["transactions"], "lat_missing": lat["missing"]})
  json.dump(res, open(os.path.join(d, "result.json"), "w"), indent=1)
  print(line(res))


def line(r):
  f = bench.fmt
  return (f"{r['system']} run {r['run']} {r['mode']}: {r['changes']:,} changes, "
          f"{'complete' if r['complete'] else 'INCOMPLETE (the tables differ from PostgreSQL)'}; "
          + (f"{f(r.get('changes_per_s'), ',.0f')} changes/s ({f(r.get('seconds'), '.1f')} s to the end state); "
             if r["mode"] == "throughput" else "")
          + f"{f(r.get('cpu_s_per_m'), '.1f')} CPU s per million changes (system {r['system_cpu_s']:.1f} s + "
          f"catalog {r['catalog_cpu_s']:.1f} s); peak RSS {r['system_rss_mb']:,.0f} MiB; "
          f"{r.get('snapshots')} snapshots, {r.get('delete_files')} delete files"
          + (f"; latency p50 {r['lat_p50_s']:.1f} s, max {r['lat_max_s']:.1f} s over {r['lat_transactions']:,} "
             f"transactions ({r['lat_missing']} never visible)"
             if "lat_p50_s" in r else ""))


def report(runs_dir, title):
  print(f"\n## {title}\n")
  rs = bench.results(runs_dir)
  if rs:
    bench.medians(rs, line, "changes", {"throughput": "the captured topics, read from the start",
                                        "latency": "pgbench at a fixed rate while the system streams"})
  rc = bench.load(os.path.join(runs_dir, "readcost", "readcost.json"))
  if rc:
    print(f"\nRead cost after {rc['duration_s']} s of streaming (a full scan, Spark, median of {rc['repeats']}; "
          "against the same table after Spark's rewrite_data_files of every file):\n")
    if not rc["landed"]:
      print("Not every change was landed when the systems were stopped (see seen-*.json).\n")
    print("| system | table | rows | equal to PostgreSQL | data files | delete files | scan s | compacted: data files | "
          "scan s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s, tabs in rc["systems"].items():
      for t, v in tabs.items():
        print(f"| {s} | {t} | {v['rows']:,} | {'yes' if v['equal'] else 'NO'} | {v['before']['data_files']} | "
              f"{v['before']['delete_files']} | {v['before']['scan_s']:.2f} | {v['after']['data_files']} | "
              f"{v['after']['scan_s']:.2f} | {v['before']['scan_s'] / v['after']['scan_s']:.2f} |")


def main(argv):
  cmd, args = argv[0], argv[1:]
  if cmd == "state":
    print(json.dumps(state(*args)))
  elif cmd == "seen":
    return seen(*args)
  elif cmd == "latency":
    print(json.dumps(latency(*args)))
  elif cmd == "compare":
    return compare(*args)
  elif cmd == "readcost":
    readcost(*args)
  elif cmd == "result":
    result(*args)
  elif cmd == "report":
    report(*args)
  else:
    sys.exit(f"dbz.py: unknown command {cmd}")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
