"""Tables as plain data, read by each engine, and an exact row-by-row diff.

Every reader (pyiceberg, Spark's JSON dump, iceberg-go's goscan) is turned into
the same shape: a schema of (name, iceberg type, required) and a dict from the
key (trip_date ISO string, payment_type) to the row's values, with doubles as
Python floats and integers as ints. diff() compares two of them exactly.
"""

import json
import math
from dataclasses import dataclass

KEY = ("trip_date", "payment_type")


@dataclass
class Table:
  source: str  # who read it, for messages: "pyiceberg spark_nyc_taxi.t"
  schema: list  # [(name, type, required)]
  rows: dict  # key tuple -> {column: value}

  def types(self):
    return {name: typ for name, typ, _ in self.schema}


def _normalize(row, types):
  out = {}
  for name, value in row.items():
    if value is None:
      out[name] = None
    elif types.get(name) == "double":
      out[name] = float(value)  # iceberg-go's JSON writes 0.0 as 0
    elif types.get(name) == "date":
      out[name] = value if isinstance(value, str) else value.isoformat()
    else:
      out[name] = value
  return out


def _index(source, schema, raw_rows):
  types = {name: typ for name, typ, _ in schema}
  rows = {}
  for raw in raw_rows:
    row = _normalize(raw, types)
    key = tuple(row.get(k) for k in KEY)
    if key in rows:
      raise AssertionError(f"{source}: key {key} appears twice")
    rows[key] = row
  return Table(source, schema, rows)


def from_pyiceberg(catalog, identifier, snapshot_id=None):
  tbl = catalog.load_table(identifier)
  schema = [(f.name, str(f.field_type), f.required) for f in tbl.schema().fields]
  scan = tbl.scan(snapshot_id=snapshot_id) if snapshot_id else tbl.scan()
  return _index(f"pyiceberg {identifier}", schema, scan.to_arrow().to_pylist())


def from_rows(source, schema, rows):
  """Indexes rows another reader returned (dicts by column name) under schema."""
  return _index(source, schema, rows)


def read_jsonl(path):
  """Returns (schema, rows) of a dump_tables.py file."""
  with open(path) as f:
    lines = [json.loads(line) for line in f if line.strip()]
  assert lines and "schema" in lines[0], f"{path} has no schema line"
  return lines[0]["schema"], lines[1:]


def from_jsonl(source, path):
  """Reads the schema-line-then-rows format of dump_tables.py and goscan."""
  with open(path) as f:
    lines = [json.loads(line) for line in f if line.strip()]
  if not lines or "schema" not in lines[0]:
    raise AssertionError(f"{source}: {path} has no schema line")
  schema = [(c["name"], c["type"], c["required"]) for c in lines[0]["schema"]]
  return _index(source, schema, lines[1:])


def _same(a, b):
  if isinstance(a, float) and isinstance(b, float):
    return a == b or (math.isnan(a) and math.isnan(b))
  return a == b and type(a) is type(b)


def diff(want, got, limit=30):
  """Lists every difference between two tables' rows, exactly.

  Doubles must be equal bit for bit (no tolerance); each mismatch names the
  row key, the column, both values and their difference.
  """
  problems = []
  missing = sorted(set(want.rows) - set(got.rows), key=repr)
  extra = sorted(set(got.rows) - set(want.rows), key=repr)
  for key in missing:
    problems.append(f"row {key}: in {want.source}, missing from {got.source}")
  for key in extra:
    problems.append(f"row {key}: in {got.source}, not in {want.source}")
  columns = [name for name, _, _ in want.schema]
  for key in sorted(set(want.rows) & set(got.rows), key=repr):
    w, g = want.rows[key], got.rows[key]
    for col in columns:
      a, b = w.get(col), g.get(col)
      if _same(a, b):
        continue
      msg = f"row {key} column {col}: {want.source}={a!r} {got.source}={b!r}"
      if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        msg += f" (diff {b - a:+.17g})"
      problems.append(msg)
  if len(problems) > limit:
    problems = problems[:limit] + [f"... and {len(problems) - limit} more"]
  return problems


def schema_diff(want, got, nullability):
  """Compares column names, order and types; with nullability, required flags too."""
  w = [(n, t, r) if nullability else (n, t) for n, t, r in want.schema]
  g = [(n, t, r) if nullability else (n, t) for n, t, r in got.schema]
  if w == g:
    return []
  return [f"{want.source}: {w}", f"{got.source}: {g}"]
