"""Recount of clicks_per_minute's output from its source, snapshot by snapshot.

Usage: recount_per_minute.py CATALOG_URI SOURCE_TABLE OUTPUT_TABLE

For every append snapshot of the source (clicks: user_id, click_count), the
rows of the data files it added, counted per user in the minute of the
snapshot's commit time: what clicks_per_minute must hold, one row per
(user_id, window_start) with clicks (rows) and click_count (their sum).
Read with pyiceberg and pyarrow, not with our code. Prints the comparison;
exits 1 on any difference.
"""

import collections
import sys

import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.manifest import ManifestEntryStatus


def recount(tbl):
  want = collections.Counter()
  clicks = collections.Counter()
  snaps = 0
  for snap in tbl.metadata.snapshots:
    if snap.summary.operation.value != "append":
      continue
    snaps += 1
    minute_us = snap.timestamp_ms // 60000 * 60000 * 1000
    for manifest in snap.manifests(tbl.io):
      if manifest.added_snapshot_id != snap.snapshot_id:
        continue
      for entry in manifest.fetch_manifest_entry(tbl.io, discard_deleted=True):
        if entry.status != ManifestEntryStatus.ADDED:
          continue
        with tbl.io.new_input(entry.data_file.file_path).open() as f:
          rows = pq.read_table(f, columns=["user_id", "click_count"])
        for user, n in zip(rows["user_id"].to_pylist(), rows["click_count"].to_pylist()):
          clicks[(user, minute_us)] += 1
          want[(user, minute_us)] += n
  return snaps, {k: (clicks[k], want[k]) for k in clicks}


def main():
  uri, source, output = sys.argv[1:4]
  cat = RestCatalog("recount", uri=uri)
  snaps, want = recount(cat.load_table(source))
  out = cat.load_table(output).scan().to_arrow()
  got, dups = {}, 0
  starts = pc.cast(out["window_start"], "int64").to_pylist()
  for user, start, n, s in zip(out["user_id"].to_pylist(), starts, out["clicks"].to_pylist(),
                               out["click_count"].to_pylist()):
    if (user, start) in got:
      dups += 1
    got[(user, start)] = (n, s)
  wrong = sorted(k for k in want if got.get(k) != want[k])
  extra = sorted(k for k in got if k not in want)
  print(f"recount: {snaps} source append snapshots, {sum(c for c, _ in want.values())} rows; "
        f"{len(want)} (user, minute) pairs expected, {len(got)} in the output; "
        f"{len(wrong)} missing or different, {len(extra)} unexpected, {dups} duplicated")
  for k in (wrong + extra)[:10]:
    print(f"  {k}: got {got.get(k)}, want {want.get(k)}")
  sys.exit(1 if wrong or extra or dups else 0)


if __name__ == "__main__":
  main()
