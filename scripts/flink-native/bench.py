"""Helpers of scripts/bench-flink-native.sh: process accounting, the catalog's
snapshots, and the per-run and median tables.

  bench.py procs OUT [--exe PATH]... [--arg S]... [--pid-log FILE]...
      Samples, every 0.5 s until SIGTERM, the processes of one writer: those
      running the binary PATH (/proc/PID/exe) and, if any --arg is given,
      with an argument containing S; and the pid N of each "job server, pid
      N" line in FILE
      (scripts/jobserver.sh's start message). Keeps for each its last CPU
      time (utime+stime+cutime+cstime, /proc/PID/stat) and peak RSS (VmHWM,
      /proc/PID/status), written to OUT (JSON) after every sample, so that a
      process's figures survive it (to within the last 0.5 s of CPU).
  bench.py fetch URI NS.TABLE OUT
      The table's metadata (GET /v1/namespaces/NS/tables/TABLE) into OUT.
  bench.py native DIR START_MS
  bench.py ours DIR CACHE
      One run's figures into DIR/result.json (see the script's header for
      their definitions); prints them as one line.
  bench.py report RUNS_DIR TITLE
      The per-run figures and the medians per writer, as markdown.
"""

import json
import os
import re
import signal
import statistics
import sys
import time
import urllib.request

HZ = os.sysconf("SC_CLK_TCK")


def procs(argv):
  out, exes, args, logs = argv[0], [], [], []
  i = 1
  while i < len(argv):
    flag, val = argv[i], argv[i + 1]
    {"--exe": exes, "--arg": args, "--pid-log": logs}[flag].append(val)
    i += 2
  exes = [os.path.realpath(e) for e in exes]
  me = os.getpid()
  stop = []
  signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
  known, seen = {}, {}  # pid -> kind (or None: not ours); pid -> figures

  def kind_of(pid):
    try:
      cmd = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
      exe = os.readlink(f"/proc/{pid}/exe").removesuffix(" (deleted)")
    except OSError:
      return None
    if exe in exes and (not args or any(a.encode() in c for a in args for c in cmd[1:])):
      return "exe"
    return None

  def sample():
    for f in logs:
      try:
        for m in re.finditer(r"job server, pid (\d+)", open(f, errors="replace").read()):
          known[int(m.group(1))] = "jobserver"
      except OSError:
        pass
    for name in os.listdir("/proc"):
      if name.isdigit() and int(name) not in known and int(name) != me:
        known[int(name)] = kind_of(name)
    for pid, kind in known.items():
      if kind is None:
        continue
      try:
        stat = open(f"/proc/{pid}/stat").read()
        status = open(f"/proc/{pid}/status").read()
        comm = open(f"/proc/{pid}/comm").read().strip()
      except OSError:
        continue  # gone: its last figures stay
      f = stat[stat.rfind(")") + 2:].split()
      cpu = sum(int(x) for x in f[11:15]) / HZ
      m = re.search(r"VmHWM:\s+(\d+) kB", status)
      prev = seen.get(pid, {})
      seen[pid] = dict(kind=kind, comm=comm, cpu_s=cpu, hwm_kb=max(int(m.group(1)) if m else 0, prev.get("hwm_kb", 0)),
                       samples=prev.get("samples", 0) + 1)
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
      json.dump({str(k): v for k, v in seen.items()}, fh)
    os.replace(tmp, out)

  while not stop:
    sample()
    time.sleep(0.5)
  sample()


def fetch(uri, table, out):
  ns, name = table.split(".", 1)
  body = urllib.request.urlopen(f"{uri}/v1/namespaces/{ns}/tables/{name}").read()
  open(out, "wb").write(body)


def load(path, default=None):
  try:
    return json.load(open(path))
  except (OSError, ValueError):
    return default


def gnu_time(path):
  """user+sys CPU seconds, max RSS kB and exit status from /usr/bin/time -v, or None."""
  try:
    t = open(path).read()
  except OSError:
    return None
  g = lambda k: re.search(re.escape(k) + r":\s*([\d.]+)", t)
  if not g("Maximum resident set size (kbytes)"):
    return None
  return dict(cpu_s=float(g("User time (seconds)").group(1)) + float(g("System time (seconds)").group(1)),
              rss_kb=int(g("Maximum resident set size (kbytes)").group(1)),
              exit=int(g("Exit status").group(1)) if g("Exit status") else None)


def snapshots(meta_path):
  meta = load(meta_path, {}).get("metadata", {})
  return sorted(meta.get("snapshots", []), key=lambda s: s["timestamp-ms"])


def table_figures(res, snaps, start_ms):
  rows = sum(int(s["summary"].get("added-records", 0)) for s in snaps)
  res.update(rows=rows, snapshots=len(snaps),
             data_files=sum(int(s["summary"].get("added-data-files", 0)) for s in snaps))
  if snaps:
    last = snaps[-1]["timestamp-ms"]
    res["span_s"] = (last - start_ms) / 1000
    res["rows_per_s"] = rows / max(res["span_s"], 1e-3)


def cpu_rss(res, parts):
  """parts: [(name, cpu_s, rss_kb)] of the writer's processes."""
  res["processes"] = {n: dict(cpu_s=round(c, 2), rss_mb=round(r / 1024)) for n, c, r in parts}
  res["cpu_s"] = sum(c for _, c, _ in parts)
  res["rss_mb"] = sum(r for _, _, r in parts) / 1024
  if res.get("rows"):
    res["cpu_s_per_m"] = res["cpu_s"] / (res["rows"] / 1e6)


def lat_stats(lat):
  if not lat:
    return None
  s = sorted(lat)
  return dict(p50=s[len(s) // 2], max=s[-1], n=len(s))  # p50 as scripts/lib/panes.py's median


def native(d, start_ms):
  start_ms = int(start_ms)
  res = load(f"{d}/result.json", {})
  snaps = snapshots(f"{d}/metadata.json")
  table_figures(res, snaps, start_ms)
  trig = {}
  for line in open(f"{d}/flink.log", errors="replace"):
    m = re.search(r"Triggering checkpoint (\d+) \(type=.*?\) @ (\d+) for job", line)
    if m:
      trig[m.group(1)] = int(m.group(2))
  lat, missing = [], 0
  for s in snaps:
    # A commit at end of input (checkpoint id 2^63-1) has no trigger: missing.
    ref = trig.get(s["summary"].get("flink.max-committed-checkpoint-id"))
    if ref is None:
      missing += 1
    else:
      lat.append(s["timestamp-ms"] - ref)
  res["latency_ms"] = lat_stats(lat)
  if missing:
    res.setdefault("notes", []).append(f"{missing} commits without a trigger time in the log")
  t = gnu_time(f"{d}/time.txt")
  if t:
    cpu_rss(res, [("java", t["cpu_s"], t["rss_kb"])])
  else:
    ps = load(f"{d}/procs.json", {}).values()
    cpu_rss(res, [(p["comm"], p["cpu_s"], p["hwm_kb"]) for p in ps])
    res.setdefault("notes", []).append("CPU and RSS sampled from /proc (no /usr/bin/time report)")
  finish(d, res)


def ours(d, cache):
  res = load(f"{d}/result.json", {})
  start_ms = res["start_ms"]
  snaps = snapshots(f"{d}/metadata.json")
  table_figures(res, snaps, start_ms)
  panes = None
  try:
    for line in open(f"{d}/panes.txt"):
      if line.startswith("{"):
        panes = json.loads(line)
  except OSError:
    pass
  if panes:
    res["latency_ms"] = dict(p50=panes["latency_ms"]["median"], max=panes["latency_ms"]["max"], n=panes["commits"])
  log = open(f"{d}/out.log", errors="replace").read()
  for pat in (r"rows committed: .*", r"rows check: .*", r"flink: \d+ checkpoints.*"):
    m = re.search(pat, log)
    if m:
      res.setdefault("checks", []).append(m.group(0).strip())
  if "MISMATCH" in log or re.search(r"rows check: .*[1-9]\d* (lost|duplicated)", log):
    res.setdefault("notes", []).append("rows check failed")
  ps = load(f"{d}/procs.json", {})
  parts = []
  t = gnu_time(f"{d}/time.txt")
  if t:
    parts.append(("clicks", t["cpu_s"], t["rss_kb"]))
  else:
    parts += [(p["comm"], p["cpu_s"], p["hwm_kb"]) for p in ps.values() if p["kind"] == "exe"]
    res.setdefault("notes", []).append("Go process sampled from /proc (no /usr/bin/time report)")
  parts += [("jobserver", p["cpu_s"], p["hwm_kb"]) for p in ps.values() if p["kind"] == "jobserver"]
  cpu_rss(res, parts)
  finish(d, res)


def finish(d, res):
  json.dump(res, open(f"{d}/result.json", "w"), indent=1)
  lat = res.get("latency_ms") or {}
  print(f"{res['writer']} run {res['run'] + 1}: {'finished' if res['finished'] else 'DID NOT FINISH (' + res.get('why', '') + ')'}, "
        f"{res.get('rows', 0):,} rows, {res.get('rows_per_s', 0):,.0f} rows/s, "
        f"{res.get('cpu_s', 0):.1f} CPU s ({res.get('cpu_s_per_m', 0):.2f} a million rows), {res.get('rss_mb', 0):,.0f} MB peak RSS, "
        f"{res.get('snapshots', 0)} snapshots, {res.get('data_files', 0)} data files, "
        f"commit latency p50 {lat.get('p50', '-')} / max {lat.get('max', '-')} ms"
        + "".join(f"; {n}" for n in res.get("notes", [])))


LABELS = {
  "native": "Flink 1.20.1 SQL, Iceberg 1.10.1's Flink sink",
  "prism": "icebeam clicks, prism",
  "flink": "icebeam clicks, Beam's portable Flink runner",
}


def fmt_lat(lat):
  return f"{lat['p50'] / 1000:.2f} / {lat['max'] / 1000:.2f} s" if lat else "-"


def report(runs_dir, title):
  rs = [load(os.path.join(runs_dir, n, "result.json")) for n in sorted(os.listdir(runs_dir))]
  rs = [r for r in rs if r and "rows" in r]
  rs.sort(key=lambda r: (r["run"], r["position"]))
  print(f"\n### Per run\n\n{title}\n")
  print("| run | writer | order | finished | rows | rows/s | CPU s | CPU s / M rows | peak RSS (processes) | snapshots | data files | commit latency p50 / max | notes |")
  print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
  for r in rs:
    procs_ = ", ".join(f"{n} {p['rss_mb']:,} MB" for n, p in r.get("processes", {}).items())
    notes = "; ".join(r.get("notes", []) + r.get("checks", []))
    print(f"| {r['run'] + 1} | {r['writer']} | {r['position'] + 1} | {'yes' if r['finished'] else 'no: ' + r.get('why', '')} | "
          f"{r['rows']:,} | {r.get('rows_per_s', 0):,.0f} | {r.get('cpu_s', 0):.1f} | {r.get('cpu_s_per_m', 0):.2f} | "
          f"{r.get('rss_mb', 0):,.0f} MB ({procs_}) | {r['snapshots']} | {r['data_files']} | {fmt_lat(r.get('latency_ms'))} | {notes} |")
  print(f"\n### Medians per writer\n\n{title}\n")
  print("| writer | runs finished | rows/s | CPU s per million rows | peak RSS | snapshots | data files | commit latency p50 / max |")
  print("|---|---|---|---|---|---|---|---|")
  partial = []
  for w in ("native", "prism", "flink"):
    runs = [r for r in rs if r["writer"] == w]
    if not runs:
      continue
    # Medians of the finished runs; if none finished, of those that committed.
    ws = [r for r in runs if r["finished"] and r["rows"]] or [r for r in runs if r["rows"]] or runs
    if not all(r["finished"] for r in ws):
      partial.append(LABELS[w])
    med = lambda k: statistics.median([r.get(k) or 0 for r in ws])
    lats = [r["latency_ms"] for r in ws if r.get("latency_ms")]
    lat = dict(p50=statistics.median(l["p50"] for l in lats), max=statistics.median(l["max"] for l in lats)) if lats else None
    print(f"| {LABELS[w]} | {sum(r['finished'] for r in runs)} of {len(runs)} | {med('rows_per_s'):,.0f} | {med('cpu_s_per_m'):.2f} | "
          f"{med('rss_mb') / 1024:.2f} GB | {med('snapshots'):g} | {med('data_files'):g} | {fmt_lat(lat)} |")
  if partial:
    print(f"\nNo run finished for {' and '.join(partial)} (stopped at the run time-out): its medians are of what those "
          "runs had committed by then, and its CPU is counted until it was stopped.")


def main():
  cmd, args = sys.argv[1], sys.argv[2:]
  {"procs": lambda: procs(args), "fetch": lambda: fetch(*args), "native": lambda: native(*args),
   "ours": lambda: ours(*args), "report": lambda: report(*args)}[cmd]()


if __name__ == "__main__":
  main()
