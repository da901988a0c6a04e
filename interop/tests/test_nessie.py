"""Check our sink and reader against a real Nessie server (Iceberg REST at
/iceberg, warehouse gs://warehouse/ in fake-gcs-server), started by run.sh.

The clicks pipeline writes one table on main, then more rows on a branch
dev; main and dev must then differ by exactly the second run's rows,
`icebeam scan T@dev`, `T#hash` and `T@dev#hash` must read the right commit,
and after Nessie merges dev into main, main must read what dev does. Row i
of a run is ("user-" + i%10, i%100), so a run that committed N rows must
read back as rows 0..N-1, a multiset built here from the formula.
"""

import os
import re
import shlex
import subprocess
from collections import Counter

import pytest
import requests

from conftest import BIN, ROOT, WORK, run, icebeam_json

NESSIE_URI = os.environ.get("INTEROP_NESSIE_URI", "")
NESSIE_API = os.environ.get("INTEROP_NESSIE_API", "")
GCS_URI = os.environ.get("INTEROP_GCS_URI", "")
SKIP = os.environ.get("INTEROP_NESSIE_SKIP", "")

pytestmark = pytest.mark.skipif(bool(SKIP) or not NESSIE_URI,
                                reason=f"no Nessie server: {SKIP or 'run the suite through interop/run.sh'}")

TABLE = "nessie_clicks.events"
STREAM = "nessie_clicks.stream"


def storage_flags():
  # Our side reaches the emulator directly; Nessie vends its host to readers too.
  return ["--catalog=nessie", f"--catalog_uri={NESSIE_URI}", f"--gcs_endpoint={GCS_URI}/storage/v1/"]


def expected_rows(n):
  return Counter((f"user-{i % 10}", i % 100) for i in range(n))


def scan(ref):
  rows = icebeam_json(["scan", ref, "--limit=0"] + storage_flags(), f"scan {ref}")
  return Counter((r["user_id"], r["click_count"]) for r in rows)


def head(branch):
  r = requests.get(f"{NESSIE_API}/trees/{branch}", timeout=30)
  r.raise_for_status()
  return r.json()["reference"]["hash"]


def clicks(name, ref, table, extra):
  run(name, [f"{BIN}/clicks", f"--ref={ref}", f"--iceberg_table={table}", "--interval=5ms"] + storage_flags() + extra,
      120)


def assert_stream(got, what):
  """got must be rows 0..N-1 of one run; returns N."""
  n = sum(got.values())
  assert n > 0, f"{what}: no rows"
  want = expected_rows(n)
  assert got == want, f"{what}: {n} rows are not rows 0..{n - 1}: missing {want - got}, unexpected {got - want}"
  return n


@pytest.fixture(scope="module")
def branches():
  """Writes TABLE on main (one commit), branches dev off it, writes more on dev.

  Returns (main hash before dev's write, dev hash after it).
  """
  # One commit per run: the trigger outlasts the stream, so only the final pane commits.
  clicks("nessie-clicks-main", "main", TABLE, ["--triggering_frequency_seconds=60", "--duration=2s"])
  base = head("main")
  r = requests.post(f"{NESSIE_API}/trees", params={"name": "dev", "type": "BRANCH"},
                    json={"type": "BRANCH", "name": "main", "hash": base}, timeout=30)
  assert r.ok, f"creating branch dev at {base}: {r.status_code} {r.text}"
  clicks("nessie-clicks-dev", "dev", TABLE, ["--triggering_frequency_seconds=60", "--duration=1s"])
  return base, head("dev")


@pytest.fixture(scope="module")
def stream(branches):
  """Streams STREAM on dev with a commit a second for 6 s; returns the run's output."""
  clicks("nessie-clicks-stream", "dev", STREAM, ["--triggering_frequency_seconds=1", "--duration=6s"])
  with open(os.path.join(WORK, "nessie-clicks-stream.log")) as f:
    return f.read()


def summary_and_look(out, what):
  """The run's summary (at least?, rows, snapshots) and what its printed command printed, run as printed."""
  m = re.search(r"Committed (at least )?(\d+) rows in (\d+) snapshots", out)
  assert m, f"{what}: no summary in the run's output:\n{out[-2000:]}"
  look = re.search(r"Look at it: go run \./cmd/icebeam (.*)", out)
  assert look, f"{what}: no command to look at the table:\n{out[-2000:]}"
  proc = subprocess.run([f"{BIN}/icebeam"] + shlex.split(look.group(1)), capture_output=True, text=True, timeout=120,
                        cwd=ROOT)
  assert proc.returncode == 0, f"{what}: icebeam {look.group(1)} failed:\n{proc.stdout[-1000:]}{proc.stderr[-2000:]}"
  return (m.group(1), int(m.group(2)), int(m.group(3))), proc.stdout


def test_branch_and_main_differ_by_the_second_run(branches):
  main = scan(f"{TABLE}@main")
  dev = scan(f"{TABLE}@dev")
  n1 = assert_stream(main, f"{TABLE}@main")
  extra = dev - main
  assert sum(dev.values()) == n1 + sum(extra.values()), f"{TABLE}@dev lacks rows that main has: {main - dev}"
  assert_stream(extra, f"{TABLE}@dev minus {TABLE}@main")
  # The default branch is main: no ref reads main.
  assert scan(TABLE) == main


def test_hash_reads_pick_the_commit(branches):
  base, dev_head = branches
  assert scan(f"{TABLE}@dev#{base}") == scan(f"{TABLE}@main"), "dev at the branch point should read as main"
  assert scan(f"{TABLE}#{dev_head}") == scan(f"{TABLE}@dev"), "dev's head hash, detached, should read as dev"


def test_branch_snapshot_is_the_sinks_commit(branches):
  snaps = icebeam_json(["snapshots", f"{TABLE}@dev"] + storage_flags(), f"snapshots {TABLE}@dev")
  extra = sum((scan(f"{TABLE}@dev") - scan(f"{TABLE}@main")).values())
  assert snaps and snaps[-1]["operation"] == "append" and snaps[-1]["added_records"] == extra, snaps
  assert snaps[-1]["commit_id"], f"the sink's commit id is missing from dev's snapshot: {snaps[-1]}"


def test_merge_brings_the_rows_to_main(branches):
  _, dev_head = branches
  dev = scan(f"{TABLE}@dev")
  main_head = head("main")
  r = requests.post(f"{NESSIE_API}/trees/main@{main_head}/history/merge",
                    json={"fromRefName": "dev", "fromHash": dev_head}, timeout=60)
  assert r.ok, f"merging dev@{dev_head} into main@{main_head}: {r.status_code} {r.text}"
  assert head("main") != main_head
  assert scan(f"{TABLE}@main") == dev


@pytest.mark.xfail(strict=False, reason=(
    "intermittent lost update on Nessie 0.99 (seen 1 run in 3 on a fresh server, 1200 rows committed, "
    "1011 read): the sink commits panes concurrently; a pane whose base had no snapshot sends "
    "assert-ref-snapshot-id main=null, which Nessie accepts although another pane's snapshot is "
    "already main (see test_nessie_rejects_a_stale_first_commit), so that snapshot's rows vanish"))
def test_streaming_commits_keep_every_row(stream):
  assert_stream(scan(f"{STREAM}@dev"), f"{STREAM}@dev after several streaming commits")


@pytest.mark.xfail(strict=True, reason=(
    "Nessie 0.99 ignores assert-ref-snapshot-id with snapshot-id null (\"the ref must not exist\") "
    "when the ref exists, so a commit built on a table without snapshots replaces a concurrent one; "
    "this is why test_streaming_commits_keep_every_row can lose rows"))
def test_nessie_rejects_a_stale_first_commit(branches):
  # On a branch of its own, so the probe's property does not reach main.
  base = head("main")
  r = requests.post(f"{NESSIE_API}/trees", params={"name": "probe", "type": "BRANCH"},
                    json={"type": "BRANCH", "name": "main", "hash": base}, timeout=30)
  assert r.ok, f"creating branch probe at {base}: {r.status_code} {r.text}"
  ns, tbl = TABLE.split(".")
  r = requests.post(f"{NESSIE_URI}/v1/probe/namespaces/{ns}/tables/{tbl}", timeout=30, json={
      "requirements": [{"type": "assert-ref-snapshot-id", "ref": "main", "snapshot-id": None}],
      "updates": [{"action": "set-properties", "updates": {"interop.probe": "stale-first-commit"}}],
  })
  # Iceberg's REST spec: a null snapshot-id requires that the ref not exist; main does here.
  assert r.status_code == 409, f"Nessie accepted a commit asserting {TABLE} has no main snapshot: {r.status_code}"


def test_summary_counts_the_runs_commits(branches):
  """The dev run's summary counts what it committed (1 s of rows 5 ms apart,
  in one commit), although Nessie serves only the current snapshot, and the
  command it prints to look at the table works as printed."""
  with open(os.path.join(WORK, "nessie-clicks-dev.log")) as f:
    out = f.read()
  got, _ = summary_and_look(out, "the dev run")
  assert got == (None, 200, 1), f"summary: {got}"


def test_stream_summary_counts_every_commit(stream):
  """The issue's first run: a stream that commits several times to a Nessie
  branch reports every commit and row it made (the job's own commit lines
  count them), not the one snapshot Nessie serves, and its printed command
  shows the branch's table."""
  lines = re.findall(r"icebergio: committed table=" + re.escape(STREAM) + r" .*?snapshot=(\d+) .*? rows=(\d+)", stream)
  commits = [int(rows) for _, rows in lines]
  assert len(commits) > 1, f"the stream committed {len(commits)} times; the check needs several:\n{stream[-2000:]}"
  got, look = summary_and_look(stream, "the stream")
  read = sum(scan(f"{STREAM}@dev").values())
  if read != sum(commits):
    pytest.xfail(f"Nessie lost a commit (committed {sum(commits)} rows, read {read}): "
                 "see test_nessie_rejects_a_stale_first_commit")
  assert got == (None, sum(commits), len(commits)), (
      f"summary (at least?, rows, snapshots) {got}; the job committed {len(commits)} times, {sum(commits)} rows")
  assert any(snap in look for snap, _ in lines), f"the printed command shows none of the run's snapshots:\n{look[-2000:]}"
