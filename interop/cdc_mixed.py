"""The benchmark's change stream, rebuilt from its documentation, and the
table it leaves.

transforms/cdc's Mixed(i, keys) documents change i of the stream that
`pipelines/cdc --changes=mixed` generates. This module computes the same
changes from that documentation alone, vectorized with pyarrow.compute (no
code of the pipeline), so that interop/bench-cdc.sh can feed Spark the same
changes and check both engines' tables against one independent model.
"""

import pyarrow as pa
import pyarrow.compute as pc

BASE_MICROS = 1_767_225_600_000_000  # 2026-01-01T00:00:00Z
OWNERS = pa.array([f"owner-{i}" for i in range(50)])
U64 = pa.uint64()


def _u64(v):
  return pa.scalar(v, U64)


def mix64(z):
  """SplitMix64's finalizer of a uint64 array (multiplication wraps)."""
  z = pc.multiply(z, _u64(0x9E3779B97F4A7C15))
  z = pc.multiply(pc.bit_wise_xor(z, pc.shift_right(z, _u64(30))), _u64(0xBF58476D1CE4E5B9))
  z = pc.multiply(pc.bit_wise_xor(z, pc.shift_right(z, _u64(27))), _u64(0x94D049BB133111EB))
  return pc.bit_wise_xor(z, pc.shift_right(z, _u64(31)))


def _mod(a, b):
  """a % b of unsigned a (pyarrow.compute has no modulo)."""
  return pc.subtract(a, pc.multiply(pc.divide(a, b), b))


_ARANGE = {}


def _positions(start, stop):
  """The int64 array start..stop-1 (pa.array(range(...)) is slow: offsets
  of one cached 0..n-1 instead)."""
  n = stop - start
  if n not in _ARANGE:
    _ARANGE.clear()
    _ARANGE[n] = pa.array(range(n), pa.int64())
  return pc.add(_ARANGE[n], start)


def changes(start, stop, keys):
  """Changes start..stop-1 as a table (see changes_at)."""
  return changes_at(_positions(start, stop), keys)


def _ids(i, keys):
  """The ids changes i go to: what changes_at computes, without the rest."""
  load = pc.less(i, keys)
  h = mix64(pc.cast(pc.add(pc.if_else(load, i, pc.subtract(i, keys)), 1), U64))
  return pc.if_else(load, i, pc.cast(_mod(h, _u64(keys)), pa.int64()))


def changes_at(i, keys):
  """Changes i (an int64 array) as a table: op, id, lsn, owner,
  balance_cents, updated_at (epoch microseconds); deletes have null row
  fields."""
  load = pc.less(i, keys)
  # h = mix64(i+1) during the load, mix64(i-keys+1) after it.
  h = mix64(pc.cast(pc.add(pc.if_else(load, i, pc.subtract(i, keys)), 1), U64))
  sel = pc.cast(_mod(pc.shift_right(h, _u64(40)), _u64(20)), pa.int64())
  op = pc.if_else(load, "c", pc.if_else(pc.less(sel, 12), "u", pc.if_else(pc.less(sel, 17), "c", "d")))
  ids = _ids(i, keys)
  live = pc.not_equal(op, "d")
  null_i64 = pa.scalar(None, pa.int64())
  owner = pc.if_else(live, pc.take(OWNERS, _mod(pc.shift_right(h, _u64(20)), _u64(50))), pa.scalar(None, pa.string()))
  balance = pc.if_else(live, pc.cast(_mod(pc.shift_right(h, _u64(24)), _u64(1_000_000)), pa.int64()), null_i64)
  updated = pc.if_else(live, pc.add(pc.multiply(i, 1000), BASE_MICROS), null_i64)
  return pa.table({"op": op, "id": ids, "lsn": pc.add(i, 1), "owner": owner,
                   "balance_cents": balance, "updated_at": updated})


def final_state(n, keys, chunk=8_000_000):
  """The table changes 0..n-1 leave: per id its last change (the highest
  LSN), unless a delete; columns id, owner, balance_cents, updated_at, lsn,
  sorted by id. A change is a function of its LSN, so only each id's last
  LSN is carried from chunk to chunk."""
  last = None
  for start in range(0, n, chunk):
    i = _positions(start, min(n, start + chunk))
    ids = pa.table({"id": _ids(i, keys), "lsn": pc.add(i, 1)})
    if last is not None:
      ids = pa.concat_tables([last, ids])
    last = ids.group_by("id").aggregate([("lsn", "max")]).rename_columns(["id", "lsn"])
  rows = changes_at(pc.subtract(last["lsn"].combine_chunks(), 1), keys)
  rows = rows.filter(pc.not_equal(rows["op"], "d"))
  return rows.select(["id", "owner", "balance_cents", "updated_at", "lsn"]).sort_by("id")


if __name__ == "__main__":
  # Spot checks against transforms/cdc's hand-checked cases.
  t = changes(0, 1002, 1000).to_pylist()
  assert t[0] == {"op": "c", "id": 0, "lsn": 1, "owner": "owner-37", "balance_cents": 504571, "updated_at": BASE_MICROS}
  assert t[1000] == {"op": "c", "id": 535, "lsn": 1001, "owner": "owner-37", "balance_cents": 504571, "updated_at": BASE_MICROS + 1_000_000}
  assert t[1001]["op"] == "d" and t[1001]["id"] == 700
  s = final_state(1002, 1000)
  assert s.num_rows == 999 and 700 not in s["id"].to_pylist()
  print("cdc_mixed: ok")
