"""Commits of a streaming icebergio sink, read from its table's snapshots.

Usage: panes.py CATALOG_URI NS.TABLE START_MS TRIGGER_SECONDS [ROWS_KEY]

NS.TABLE may be a template (many.clicks_{user_id}): then every table of
namespace NS whose name starts as the template's does is one destination,
and instead of a line per pane it prints the commits of all tables together:
how many, per second, their latency after their window's end, and how many
landed within one triggering period of it.

Prints one line per pane (rows, files, window end, commit time, latency
after the window's end, rows/s in the window), then totals, and last one
JSON line with the figures the benchmark scripts report. ROWS_KEY is the
snapshot summary entry counted as the pane's rows: added-records (appends,
the default) or icebeam.change-rows (row-level changes, before they
collapse per key).

Window end: the moment a pane's processing-time trigger was due. The sink
records in each snapshot summary when the pane's first and last row batches
were sent to the shuffle (icebeam.batches-sent-ms) and the pane's timing.
Pane k's trigger is armed at its first element (Beam) or at the previous
firing (prism), so it was due no sooner than min(first_k, last_{k-1}) + F;
the last pane of a finished input fires when the input ends, no sooner than
last_k. Latency = snapshot timestamp - that bound, so it errs long, never
short.
"""

import json
import sys
import urllib.request


def panes(uri, table, rows_key):
  ns, name = table.split(".", 1)
  meta = json.load(urllib.request.urlopen(f"{uri}/v1/namespaces/{ns}/tables/{name}"))["metadata"]
  out = []
  for s in meta["snapshots"]:
    sm = s["summary"]
    if "icebeam.batches-sent-ms" not in sm:
      continue  # not a streaming pane of ours (maintenance, say)
    first, last = map(int, sm["icebeam.batches-sent-ms"].split("-"))
    out.append(dict(ts=s["timestamp-ms"], rows=int(sm.get(rows_key, 0)), files=int(sm.get("added-data-files", 0)),
                    deletes=int(sm.get("added-delete-files", 0)), first=first, last=last, timing=sm["icebeam.pane-timing"]))
  # Panes in firing order: each one's batches were sent before the next one's.
  out.sort(key=lambda p: p["last"])
  return out


def window_ends(ps, f):
  """Sets each pane's "end": the earliest its trigger can have been due."""
  for k, p in enumerate(ps):
    end = p["first"] + f
    if k > 0:
      end = min(end, ps[k - 1]["last"] + f)
    if p["timing"] != "early":
      end = min(end, p["last"])
    p["end"] = end


def tables_of(uri, template):
  ns, name = template.split(".", 1)
  prefix = name.split("{", 1)[0]
  names, token = [], None
  while True:
    q = f"?pageToken={urllib.request.quote(token)}" if token else ""
    resp = json.load(urllib.request.urlopen(f"{uri}/v1/namespaces/{ns}/tables{q}"))
    names += [f"{ns}.{t['name']}" for t in resp["identifiers"] if t["name"].startswith(prefix)]
    token = resp.get("next-page-token")
    if not token:
      return sorted(names)


def many(uri, template, start_ms, f, rows_key):
  tables = tables_of(uri, template)
  if not tables:
    raise SystemExit(f"panes: no table matches {template}")
  all_ps = []
  for t in tables:
    ps = panes(uri, t, rows_key)
    window_ends(ps, f)
    all_ps += ps
  lat = sorted(p["ts"] - p["end"] for p in all_ps)
  rows = sum(p["rows"] for p in all_ps)
  first, last = min(p["ts"] for p in all_ps), max(p["ts"] for p in all_ps)
  q = lambda x: lat[min(len(lat) - 1, int(x * len(lat)))]
  res = dict(tables=len(tables), commits=len(all_ps), rows=rows, span_s=(last - start_ms) / 1000,
             commits_per_s=len(all_ps) / max((last - first) / 1000, 1e-3),
             latency_ms=dict(min=lat[0], median=q(0.5), p90=q(0.9), max=lat[-1]),
             within_period=sum(1 for l in lat if l <= f))
  print(f"\ntables: {len(tables)}, commits: {len(all_ps)} ({len(all_ps) / len(tables):.1f} a table), rows: {rows:,}")
  print(f"commits per second, first to last commit: {res['commits_per_s']:,.1f}")
  print(f"commit latency after window end (ms): min {lat[0]}, median {q(0.5)}, p90 {q(0.9)}, max {lat[-1]}; "
        f"{res['within_period']}/{len(lat)} within the {f // 1000} s period")
  print(json.dumps(res))


def main():
  uri, table, start_ms, trigger = sys.argv[1:5]
  rows_key = sys.argv[5] if len(sys.argv) > 5 else "added-records"
  start_ms, f = int(start_ms), int(trigger) * 1000
  if "{" in table:
    return many(uri, table, start_ms, f, rows_key)
  ps = panes(uri, table, rows_key)
  if not ps:
    raise SystemExit(f"panes: {table} has no streaming commits")
  window_ends(ps, f)
  print(f"\n{'pane':>4} {'timing':>7} {'rows':>11} {'files':>5} {'deletes':>7} {'window end (s)':>14} {'commit (s)':>10} {'latency ms':>10} {'rows/s in window':>16}")
  lat, prev_end = [], None
  for k, p in enumerate(ps):
    end = p["end"]
    win_start = prev_end if prev_end is not None else start_ms
    rate = p["rows"] / max((end - win_start) / 1000, 1e-3)
    prev_end = end
    lat.append(p["ts"] - end)
    print(f"{k:>4} {p['timing']:>7} {p['rows']:>11,} {p['files']:>5} {p['deletes']:>7} {(end - start_ms) / 1000:>14.2f} "
          f"{(p['ts'] - start_ms) / 1000:>10.2f} {p['ts'] - end:>10} {rate:>16,.0f}")
  rows = sum(p["rows"] for p in ps)
  span = (ps[-1]["ts"] - start_ms) / 1000
  srt = sorted(lat)
  res = dict(commits=len(ps), rows=rows, span_s=span, sustained=rows / span,
             latency_ms=dict(min=srt[0], median=srt[len(srt) // 2], max=srt[-1]), within_1s=sum(1 for l in lat if l <= 1000))
  print(f"\ncommits: {len(ps)}, rows: {rows:,}")
  print(f"sustained: {rows / span:,.0f} rows/s over {span:.1f} s (pipeline start to last commit)")
  steady = ps[1:-1]
  if steady:
    sspan = (steady[-1]["end"] - ps[0]["end"]) / 1000
    res["steady"] = sum(p["rows"] for p in steady) / sspan
    print(f"steady state (panes 1..{len(ps) - 2}): {res['steady']:,.0f} rows/s")
  print(f"commit latency after window end (ms): min {srt[0]}, median {srt[len(srt) // 2]}, max {srt[-1]}; "
        f"{res['within_1s']}/{len(lat)} within 1 s, {sum(1 for l in lat if l <= 2000)}/{len(lat)} within 2 s")
  print(json.dumps(res))


if __name__ == "__main__":
  main()
