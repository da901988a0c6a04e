"""DuckDB with its iceberg extension, as the interop suite and benchmarks use it.

The extensions come from PyPI (duckdb-extension-avro and -iceberg, pinned in
interop/requirements.txt) and are LOADed from the installed wheels: this
machine cannot reach DuckDB's extension repository, and nothing falls back.
"""

import glob
import json
import os
import urllib.request

import duckdb


def connect():
  """A DuckDB connection with the iceberg extension loaded."""
  con = duckdb.connect()
  con.execute("SET autoinstall_known_extensions = false")
  for ext in ("avro", "iceberg"):  # iceberg reads manifests through avro
    mod = __import__(f"duckdb_extension_{ext}")
    path, = glob.glob(os.path.join(os.path.dirname(mod.__file__), "extensions", "*", f"{ext}.duckdb_extension"))
    con.execute(f"LOAD '{path}'")
  return con


def metadata_location(uri, ident):
  """The current metadata file of table ident ("ns.table") in the REST catalog at uri."""
  ns, name = ident.split(".")
  with urllib.request.urlopen(f"{uri}/v1/namespaces/{ns}/tables/{name}") as r:
    return json.load(r)["metadata-location"]
