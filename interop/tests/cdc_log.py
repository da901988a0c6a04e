"""A Debezium change log of an accounts table, and the table it leaves.

The log is made here, with Python's own random numbers and JSON, by no code
of the pipeline: 4,000 events on 300 ids (inserts, snapshot reads, updates,
deletes, ids that come back), split over three files (with the {"schema",
"payload"} envelope and without it), with neighbouring events swapped so that
file order and LSN order differ. The final state is computed per id: the event with the
highest LSN wins, a delete leaves no row.
"""

import json
import os
import random

EVENTS = 4000
IDS = 300
BASE_MICROS = 1_767_225_600_000_000  # 2026-01-01T00:00:00Z


def events():
  r = random.Random(21)
  live = set()
  out = []
  for n in range(EVENTS):
    i = r.randrange(IDS)
    if i not in live:
      op = r.choice("cr")
    elif r.random() < 0.15:
      op = "d"
    else:
      op = "u"
    if op == "d":
      live.discard(i)
    else:
      live.add(i)
    row = {"id": i, "owner": f"owner-{r.randrange(20)}", "balance_cents": r.randrange(10**9),
           "updated_at": BASE_MICROS + n * 1000}
    out.append({"op": op, "row": row, "lsn": 10_000 + 3 * n})
  return out


def _event_json(e, wrapped):
  payload = {"op": e["op"], "ts_ms": 1767225600000}
  if e["op"] == "d":
    payload["before"], payload["after"] = e["row"], None
  else:
    payload["before"] = {"id": e["row"]["id"]} if e["op"] == "u" else None
    payload["after"] = e["row"]
  payload["source"] = {"connector": "postgresql", "lsn": e["lsn"]}
  return json.dumps({"schema": {"type": "struct"}, "payload": payload} if wrapped else payload)


def write(directory):
  """Writes the log as three files in directory."""
  os.makedirs(directory, exist_ok=True)
  evs = events()
  third = len(evs) // 3
  parts = [(evs[:third], True), (evs[third:2 * third], False), (evs[2 * third:], True)]
  for k, (part, wrapped) in enumerate(parts):
    part = list(part)
    for j in range(0, len(part) - 1, 5):
      part[j], part[j + 1] = part[j + 1], part[j]
    with open(os.path.join(directory, f"accounts-{k}.json"), "w") as f:
      for e in part:
        f.write(_event_json(e, wrapped) + "\n")


def final_state():
  """{id: (owner, balance_cents, updated_at micros)} of the rows the log leaves."""
  last = {}
  for e in events():
    i = e["row"]["id"]
    if i not in last or e["lsn"] > last[i]["lsn"]:
      last[i] = e
  return {i: (e["row"]["owner"], e["row"]["balance_cents"], e["row"]["updated_at"])
          for i, e in last.items() if e["op"] != "d"}
