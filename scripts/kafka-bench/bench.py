"""Helpers of scripts/bench-kafka.sh (run with the venv's python: pyiceberg and
pyarrow, for `latency` only; the rest is the standard library).

  bench.py create URI NS.TABLE
      Creates the namespace (if missing) and the table (unpartitioned, format
      v2, the catalog's defaults otherwise) with the benchmark's columns:
      event_id long, user_id string, url string, ts long, value double,
      flag boolean. Every system writes into a table made so.
  bench.py wait URI NS.TABLE N TIMEOUT_S PID
      Polls the table every 0.5 s until its current snapshot holds N
      records or more; prints JSON: visible_ms (the timestamp-ms of the
      first snapshot that holds N records), seen_ms (when the poll saw it),
      total (records in the table). Exit 2 if process PID exited before,
      3 after TIMEOUT_S.
  bench.py table URI NS.TABLE
      Snapshots, data files and records of the table, as JSON.
  bench.py latency URI NS.TABLE
      Per record: the timestamp-ms of the snapshot that added it minus its
      ts (the produce time kafkagen wrote into it); p50, p99 and max over
      every record, as JSON.
  bench.py sample PID OUT
      For a process not started under /usr/bin/time: every 0.5 s until it
      exits (or SIGTERM), its CPU (utime+stime+cutime+cstime) and peak RSS
      (VmHWM) from /proc, written to OUT in /usr/bin/time -v's words.
  bench.py gnu_time FILE
      /usr/bin/time -v's figures: cpu_s (user + system), rss_kb (peak), as JSON.
  bench.py result DIR
      One run's figures, from DIR/run.json and the files beside it, into
      DIR/result.json; prints one line.
  bench.py report RUNS_DIR TITLE
      Every run, then the medians per system, as markdown.
"""

import json
import os
import re
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

SCHEMA = {
    "type": "struct",
    "schema-id": 0,
    "fields": [
        {"id": 1, "name": "event_id", "type": "long", "required": False},
        {"id": 2, "name": "user_id", "type": "string", "required": False},
        {"id": 3, "name": "url", "type": "string", "required": False},
        {"id": 4, "name": "ts", "type": "long", "required": False},
        {"id": 5, "name": "value", "type": "double", "required": False},
        {"id": 6, "name": "flag", "type": "boolean", "required": False},
    ],
}


def call(uri, path, body=None):
  req = urllib.request.Request(uri.rstrip("/") + path, method="POST" if body is not None else "GET")
  if body is not None:
    req.data = json.dumps(body).encode()
    req.add_header("Content-Type", "application/json")
  with urllib.request.urlopen(req, timeout=30) as r:
    return json.load(r)


def split(table):
  ns, name = table.split(".", 1)
  return ns, name


def create(uri, table):
  ns, name = split(table)
  try:
    call(uri, "/v1/namespaces", {"namespace": [ns], "properties": {}})
  except urllib.error.HTTPError as e:
    if e.code != 409:
      raise
  call(uri, f"/v1/namespaces/{ns}/tables", {"name": name, "schema": SCHEMA, "properties": {"format-version": "2"}})


def metadata(uri, table):
  ns, name = split(table)
  return call(uri, f"/v1/namespaces/{ns}/tables/{name}")["metadata"]


def snapshots(meta):
  return sorted(meta.get("snapshots") or [], key=lambda s: (s.get("sequence-number", 0), s["timestamp-ms"]))


def total(meta):
  cur = meta.get("current-snapshot-id")
  for s in meta.get("snapshots") or []:
    if s["snapshot-id"] == cur:
      return int(s["summary"].get("total-records", 0))
  return 0


def alive(pid):
  try:
    st = open(f"/proc/{pid}/stat").read()
  except OSError:
    return False
  return st[st.rfind(")") + 2] != "Z"


def wait(uri, table, n, timeout_s, pid):
  n, deadline = int(n), time.time() + float(timeout_s)
  while True:
    try:
      meta = metadata(uri, table)
    except (urllib.error.URLError, OSError) as e:
      meta = None
      print(f"bench.py wait: {e}", file=sys.stderr)
    if meta is not None and total(meta) >= n:
      first = next(s for s in snapshots(meta) if int(s["summary"].get("total-records", 0)) >= n)
      print(json.dumps({"visible_ms": first["timestamp-ms"], "seen_ms": int(time.time() * 1000), "total": total(meta)}))
      return 0
    if not alive(pid):
      print(json.dumps({"exited": True, "total": total(meta) if meta else 0}))
      return 2
    if time.time() > deadline:
      print(json.dumps({"timeout": True, "total": total(meta) if meta else 0}))
      return 3
    time.sleep(0.5)


def table_figures(uri, table):
  meta = metadata(uri, table)
  snaps = snapshots(meta)
  return {
      "snapshots": len(snaps),
      "data_files": sum(int(s["summary"].get("added-data-files", 0)) for s in snaps),
      "records": total(meta),
      "commits": [[s["timestamp-ms"], int(s["summary"].get("added-records", 0))] for s in snaps],
  }


def latency(uri, table):
  import pyarrow.compute as pc
  import pyarrow.parquet as pq
  from pyiceberg.catalog.rest import RestCatalog
  from pyiceberg.manifest import ManifestEntryStatus

  cat = RestCatalog("bench", uri=uri)
  tbl = cat.load_table(table)
  lats = []
  n = 0
  for snap in tbl.metadata.snapshots:
    for mf in snap.manifests(tbl.io):
      if mf.added_snapshot_id != snap.snapshot_id:
        continue
      for e in mf.fetch_manifest_entry(tbl.io, discard_deleted=True):
        if e.status != ManifestEntryStatus.ADDED or e.snapshot_id != snap.snapshot_id:
          continue
        path = urllib.parse.urlparse(e.data_file.file_path).path
        ts = pq.read_table(path, columns=["ts"]).column("ts")
        lat = pc.subtract(snap.timestamp_ms, ts)
        lats.append(lat)
        n += len(ts)
  if not lats:
    return {"records": 0}
  import pyarrow as pa

  a = pa.chunked_array(lats)
  q = lambda x: int(pc.quantile(a, q=x, interpolation="lower")[0].as_py())
  return {"records": n, "p50_ms": q(0.5), "p99_ms": q(0.99), "max_ms": int(pc.max(a).as_py()),
          "min_ms": int(pc.min(a).as_py())}


def sample(pid, out):
  import signal

  stop = []
  signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
  hz = os.sysconf("SC_CLK_TCK")
  while not stop:
    try:
      st = open(f"/proc/{pid}/stat").read()
      status = open(f"/proc/{pid}/status").read()
    except OSError:
      break
    f = st[st.rfind(")") + 2:].split()
    m = re.search(r"VmHWM:\s+(\d+) kB", status)
    if m:
      tmp = out + ".part"
      with open(tmp, "w") as w:
        w.write(f"\tUser time (seconds): {(int(f[11]) + int(f[13])) / hz:.2f}\n"
                f"\tSystem time (seconds): {(int(f[12]) + int(f[14])) / hz:.2f}\n"
                f"\tMaximum resident set size (kbytes): {m.group(1)}\n")
      os.replace(tmp, out)
    time.sleep(0.5)


def gnu_time(path):
  try:
    t = open(path).read()
  except OSError:
    return None
  f = lambda k: float(re.search(rf"{k}: ([0-9.]+)", t).group(1))
  try:
    return {"cpu_s": f(r"User time \(seconds\)") + f(r"System time \(seconds\)"),
            "rss_kb": int(f(r"Maximum resident set size \(kbytes\)"))}
  except AttributeError:
    return None


def load(path, default=None):
  try:
    return json.load(open(path))
  except (OSError, ValueError):
    return default


def result(d):
  run = load(os.path.join(d, "run.json"))
  res = dict(run)
  n = run["records"]
  vis = load(os.path.join(d, "wait.json"), {})
  tab = load(os.path.join(d, "table.json"), {})
  res["table_records"] = tab.get("records")
  res["snapshots"] = tab.get("snapshots")
  res["data_files"] = tab.get("data_files")
  res["complete"] = "visible_ms" in vis and tab.get("records") == n
  if "visible_ms" in vis:
    res["seconds"] = (vis["visible_ms"] - run["start_ms"]) / 1000
    res["records_per_s"] = n / res["seconds"] if res["seconds"] > 0 else None
  res.update(resources(d, run, n))
  lat = load(os.path.join(d, "latency.json"))
  if lat and lat.get("records"):
    res.update({"lat_p50_s": lat["p50_ms"] / 1000, "lat_max_s": lat["max_ms"] / 1000, "lat_records": lat["records"]})
  json.dump(res, open(os.path.join(d, "result.json"), "w"), indent=1)
  print(line(res))


def resources(d, run, n):
  """CPU and memory of the run in d: every process of the system (its time
  files), and the catalog's; the broker and the producer are not counted."""
  cpu = rss = 0.0
  for f in run.get("system_time_files", []):
    g = gnu_time(os.path.join(d, f))
    if g:
      cpu += g["cpu_s"]
      rss += g["rss_kb"]
  cat = gnu_time(os.path.join(d, "serve.time")) or {"cpu_s": 0, "rss_kb": 0}
  return {"system_cpu_s": cpu, "catalog_cpu_s": cat["cpu_s"], "cpu_s_per_m": (cpu + cat["cpu_s"]) / (n / 1e6) if n else None,
          "system_rss_mb": rss / 1024, "catalog_rss_mb": cat["rss_kb"] / 1024}


def fmt(v, spec):
  return "-" if v is None else format(v, spec)


def line(r):
  return (f"{r['system']} run {r['run']} {r['mode']}: {r['records']:,} records, "
          f"{'complete' if r['complete'] else 'INCOMPLETE (' + str(r.get('table_records')) + ' in the table)'}; "
          f"{fmt(r.get('records_per_s'), ',.0f')} records/s ({fmt(r.get('seconds'), '.1f')} s to the last commit); "
          f"{r['cpu_s_per_m']:.1f} CPU s per million (system {r['system_cpu_s']:.1f} s + catalog {r['catalog_cpu_s']:.1f} s); "
          f"peak RSS {r['system_rss_mb']:,.0f} MiB (catalog {r['catalog_rss_mb']:.0f} MiB); "
          f"{r.get('snapshots')} snapshots, {r.get('data_files')} data files"
          + (f"; latency p50 {r['lat_p50_s']:.1f} s, max {r['lat_max_s']:.1f} s" if "lat_p50_s" in r else ""))


def med(rs, k):
  v = [r[k] for r in rs if r.get(k) is not None]
  return statistics.median(v) if v else None


def medians(rs, line, unit, modes):
  """Every run (rs, as result.json holds them; line formats one), then per
  mode (name -> what it is) the medians per system, of the complete runs if
  any; unit names what is counted: records, changes."""
  print("Every run:\n")
  for r in rs:
    print("- " + line(r))
  order = list(dict.fromkeys(r["system"] for r in rs))
  for mode, what in modes.items():
    sel = [r for r in rs if r["mode"] == mode]
    if not sel:
      continue
    print(f"\nMedians, {mode} mode ({what}):\n")
    print(f"| system | runs complete | {unit}/s | CPU s per million {unit} (incl. catalog) | peak RSS MiB | "
          "latency p50 s | latency max s | snapshots |")
    print("|---|---|---|---|---|---|---|---|")
    for s in order:
      g = [r for r in sel if r["system"] == s]
      if not g:
        continue
      ok = [r for r in g if r["complete"]] or g
      # In latency mode the producer sets the pace: records/s says nothing.
      rps = fmt(med(ok, f"{unit}_per_s"), ",.0f") if mode == "throughput" else "(offered)"
      print(f"| {s} | {sum(r['complete'] for r in g)} of {len(g)} | {rps} | "
            f"{fmt(med(ok, 'cpu_s_per_m'), '.1f')} | {fmt(med(ok, 'system_rss_mb'), ',.0f')} | "
            f"{fmt(med(ok, 'lat_p50_s'), '.1f')} | {fmt(med(ok, 'lat_max_s'), '.1f')} | {fmt(med(ok, 'snapshots'), '.0f')} |")


def results(runs_dir):
  return [r for r in (load(os.path.join(runs_dir, n, "result.json")) for n in sorted(os.listdir(runs_dir))) if r]


def report(runs_dir, title):
  print(f"\n## {title}\n")
  medians(results(runs_dir), line, "records", {"throughput": "a full topic, read from the start",
                                              "latency": "records produced at a steady rate while the system runs"})


def main(argv):
  cmd, args = argv[0], argv[1:]
  if cmd == "create":
    create(*args)
  elif cmd == "wait":
    return wait(*args)
  elif cmd == "table":
    print(json.dumps(table_figures(*args)))
  elif cmd == "latency":
    print(json.dumps(latency(*args)))
  elif cmd == "sample":
    sample(*args)
  elif cmd == "gnu_time":
    print(json.dumps(gnu_time(*args)))
  elif cmd == "result":
    result(*args)
  elif cmd == "report":
    report(*args)
  else:
    sys.exit(f"bench.py: unknown command {cmd}")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
